import fs from 'node:fs';
import path from 'node:path';
import type { RetrievalSection } from '../../renderer/retrieval/types.js';
import { errors } from '../errors.js';
import { RetrievalBusyError, type RetrievalHost } from '../retrieval/host.js';
import type { IndexSummary } from '../retrieval/index-file.js';
import type { Hit, Scope } from '../retrieval/protocol.js';

export type { Scope } from '../retrieval/protocol.js';

export interface Passage extends RetrievalSection {
  /** Relevance in [0, 1]: the best passage of a query scores 1. */
  score: number;
}

/** How long a query waits for its site's index to be built before it is answered 503. */
export const INDEX_WAIT_MS = 20_000;

/**
 * One served bundle's sections, searched in the retrieval thread (app/retrieval): nothing of the
 * corpus is held or ranked on the main thread. Every method but page() and hasPage() (one
 * bounded file read) is a message to that thread.
 */
export interface SiteRetrieval {
  /** The index's summary, once built; queries made before that wait at most INDEX_WAIT_MS. */
  info(): Promise<IndexSummary>;
  /** Open the index, building it first when needed, however long that takes (warming a new site). */
  build(): Promise<IndexSummary>;
  search(query: string, opts: Scope & { limit: number }): Promise<Passage[]>;
  /** Keyword matches in scope: section index and relevance in (0, 1], best first, at most `limit`. */
  keywordHits(query: string, scope: Scope, limit: number): Promise<Hit[]>;
  sections(ids: number[]): Promise<RetrievalSection[]>;
  /** Sections `offset` … `offset + limit - 1` in bundle order (embedding them in batches). */
  sectionRange(offset: number, limit: number): Promise<RetrievalSection[]>;
  /** One byte per section, 1 when it is in scope. */
  scopeMask(scope: Scope): Promise<Uint8Array>;
  /** The language and version of the page at `pagePath`, or the site's default ones. */
  scopeOf(pagePath: string | undefined): Promise<Scope>;
  /** The page's Markdown (`<path>.md` in the bundle), or undefined when there is no such page. */
  page(pagePath: string): { path: string; content: string } | undefined;
  /** Does a page exist at this reader URL path (`/billing/`, `/billing`)? */
  hasPage(pagePath: string): boolean;
}

const MAX_PAGE_BYTES = 4 * 1024 * 1024;

/** `/guides/intro/`, `guides/intro`, `/guides/intro.md`, `https://host/guides/intro#x` → `guides/intro`; `/` → `index`. */
export function normalisePagePath(input: string): string | undefined {
  let p = input.trim();
  try {
    if (/^https?:\/\//i.test(p)) p = new URL(p).pathname;
  } catch {
    return undefined;
  }
  p = p.replace(/[?#].*$/, '');
  try {
    p = decodeURIComponent(p);
  } catch {
    return undefined;
  }
  p = p.replace(/\.md$/, '').replace(/^\/+|\/+$/g, '');
  if (p === '') return 'index';
  // Only plain page paths: nothing that could leave the bundle or name a hidden file.
  if (p.length > 500 || p.split('/').some((seg) => seg === '' || seg === '.' || seg === '..' || seg.startsWith('.')) || /[\\\0]/.test(p)) return undefined;
  return p;
}

/** A busy or wedged retrieval thread is the caller's 503, not a 500. */
function asApiError(err: unknown): never {
  if (err instanceof RetrievalBusyError) throw errors.retrievalBusy();
  throw err;
}

/** The bundle at `root`, searched through the retrieval thread. */
export function siteRetrieval(root: string, host: RetrievalHost): SiteRetrieval {
  let opened: Promise<IndexSummary> | undefined;
  let summary: IndexSummary | undefined;
  const open = (): Promise<IndexSummary> => {
    opened ??= host.request({ op: 'open', root }).then(
      (s) => (summary = s),
      (err: unknown) => {
        opened = undefined;
        throw err;
      },
    );
    return opened;
  };
  const info = async (): Promise<IndexSummary> => {
    if (summary) return summary;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(errors.searchIndexBuilding(10)), INDEX_WAIT_MS);
    });
    try {
      return await Promise.race([open(), waited]).catch(asApiError);
    } finally {
      clearTimeout(timer);
    }
  };
  const ask = async <T>(run: () => Promise<T>): Promise<T> => {
    await info();
    return run().catch(asApiError);
  };
  const mdFile = (p: string): string | undefined => {
    const abs = path.join(root, `${p}.md`);
    try {
      const real = fs.realpathSync(abs);
      const realRoot = fs.realpathSync(root);
      if (!real.startsWith(realRoot + path.sep)) return undefined;
      const st = fs.statSync(real);
      return st.isFile() && st.size <= MAX_PAGE_BYTES ? real : undefined;
    } catch {
      return undefined;
    }
  };
  const retrieval: SiteRetrieval = {
    info,
    build: open,
    search: (query, opts) => ask(() => host.request({ op: 'search', root, query, scope: { language: opts.language, version: opts.version }, limit: opts.limit })),
    keywordHits: (query, scope, limit) => ask(() => host.request({ op: 'hits', root, query, scope: { language: scope.language, version: scope.version }, limit })),
    sections: (ids) => (ids.length === 0 ? Promise.resolve([]) : ask(() => host.request({ op: 'sections', root, ids }))),
    sectionRange: (offset, limit) => ask(() => host.request({ op: 'range', root, offset, limit })),
    scopeMask: (scope) => ask(() => host.request({ op: 'scopeMask', root, scope: { language: scope.language, version: scope.version } })),
    async scopeOf(pagePath) {
      const s = await info();
      const fallback: Scope = { ...(s.defaultLanguage !== null ? { language: s.defaultLanguage } : {}), ...(s.defaultVersion !== null ? { version: s.defaultVersion } : {}) };
      const p = pagePath === undefined ? undefined : normalisePagePath(pagePath);
      if (!p) return fallback;
      return (await ask(() => host.request({ op: 'scopeOf', root, path: p }))) ?? fallback;
    },
    page(pagePath) {
      const p = normalisePagePath(pagePath);
      const file = p && mdFile(p);
      if (!p || !file) return undefined;
      return { path: p, content: fs.readFileSync(file, 'utf8') };
    },
    hasPage(pagePath) {
      const p = normalisePagePath(pagePath);
      return !!p && !!mdFile(p);
    },
  };
  return retrieval;
}

/**
 * One SiteRetrieval per served site object (a new bundle is a new object, so a publish gets a new
 * index); a site that is no longer referenced closes its index in the retrieval thread.
 */
export function retrievalRegistry(host: RetrievalHost) {
  const loaded = new WeakMap<object, SiteRetrieval>();
  const closer = new FinalizationRegistry<string>((root) => void host.request({ op: 'close', root }).catch(() => undefined));
  return {
    for(site: { root: string }): SiteRetrieval {
      let r = loaded.get(site);
      if (!r) {
        r = siteRetrieval(site.root, host);
        loaded.set(site, r);
        closer.register(site, site.root);
      }
      return r;
    },
  };
}
