import fs from 'node:fs';
import path from 'node:path';
import MiniSearch from 'minisearch';
import { parseLegacySectionIndex, parseSectionIndex, type SectionIndex } from '../../renderer/retrieval/section-index.js';
import { LEGACY_RETRIEVAL_INDEX_PATH, RETRIEVAL_INDEX_PATH, type RetrievalSection } from '../../renderer/retrieval/types.js';

/** Common English words that only dilute a question's terms ("how do I…"). */
const STOPWORDS = new Set(
  'a an and are as at be by can do does did for from how i if in is it its me my of on or our should so that the their them then there these this to was we what when where which who why will with you your'.split(' '),
);

export interface Passage extends RetrievalSection {
  /** Relevance in [0, 1]: the best passage of a query scores 1. */
  score: number;
}

export interface Scope {
  language?: string | undefined;
  version?: string | undefined;
}

export interface SiteRetrieval {
  /** The site's name (docs.json `name`), or `Documentation` for a bundle without an index. */
  readonly name: string;
  readonly sectionCount: number;
  readonly sections: readonly RetrievalSection[];
  search(query: string, opts: Scope & { limit: number }): Passage[];
  /** Every keyword match in scope: section index and relevance in [0, 1], best first. */
  keywordHits(query: string, scope: Scope): { id: number; score: number }[];
  inScope(id: number, scope: Scope): boolean;
  /** The language and version of the page at `pagePath`, or the site's default ones. */
  scopeOf(pagePath: string | undefined): Scope;
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

/** The bundle's section index: format 2 (NDJSON), or format 1 in a bundle made before it. */
function readSectionIndex(root: string): SectionIndex | undefined {
  const read = (file: string): string | undefined => {
    try {
      return fs.readFileSync(path.join(root, file), 'utf8');
    } catch {
      return undefined;
    }
  };
  const current = read(RETRIEVAL_INDEX_PATH);
  if (current !== undefined) return parseSectionIndex(current);
  const legacy = read(LEGACY_RETRIEVAL_INDEX_PATH);
  return legacy === undefined ? undefined : parseLegacySectionIndex(legacy);
}

/**
 * The served bundle's section index, loaded once per served site and searched in memory (BM25 on
 * title, heading and text with MiniSearch). A bundle exported before the retrieval stage has no
 * index: search then finds nothing, and the assistant says the docs do not cover the question.
 */
export function loadSiteRetrieval(root: string): SiteRetrieval {
  let sections: RetrievalSection[] = [];
  let name = 'Documentation';
  const index = readSectionIndex(root);
  if (index) {
    sections = index.sections;
    if (index.name?.trim()) name = index.name.trim().slice(0, 200);
  }
  const mini = new MiniSearch<RetrievalSection & { id: number }>({
    fields: ['title', 'heading', 'text'],
    storeFields: [],
    processTerm: (term) => {
      const t = term.toLowerCase();
      return STOPWORDS.has(t) ? null : t;
    },
    searchOptions: { boost: { heading: 2, title: 1.5 }, prefix: (t) => t.length > 3, fuzzy: (t) => (t.length > 5 ? 0.15 : false), combineWith: 'OR' },
  });
  mini.addAll(sections.map((s, id) => ({ ...s, id })));
  const pageScope = new Map<string, Scope>();
  for (const s of sections) if (!pageScope.has(s.path)) pageScope.set(s.path, { language: s.language, version: s.version });
  const defaultScope: Scope = sections[0] ? { language: sections[0].language, version: sections[0].version } : {};

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

  return {
    name,
    sectionCount: sections.length,
    sections,
    search(query, opts) {
      return this.keywordHits(query, opts)
        .slice(0, opts.limit)
        .map((h) => ({ ...sections[h.id]!, score: h.score }));
    },
    keywordHits(query, scope) {
      const hits = mini.search(query.slice(0, 1000), { filter: (r) => this.inScope(r.id as number, scope) });
      const top = hits[0]?.score ?? 1;
      return hits.map((h) => ({ id: h.id as number, score: Math.round((h.score / top) * 1000) / 1000 }));
    },
    inScope(id, scope) {
      const s = sections[id]!;
      return (scope.language === undefined || s.language === undefined || s.language === scope.language) && (scope.version === undefined || s.version === undefined || s.version === scope.version);
    },
    scopeOf(pagePath) {
      const p = pagePath === undefined ? undefined : normalisePagePath(pagePath);
      return (p && pageScope.get(p)) || defaultScope;
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
}

const loaded = new WeakMap<object, SiteRetrieval>();

/** One SiteRetrieval per served site object (a new bundle is a new object, so it is rebuilt on publish). */
export function retrievalFor(site: { root: string }): SiteRetrieval {
  let r = loaded.get(site);
  if (!r) {
    r = loadSiteRetrieval(site.root);
    loaded.set(site, r);
  }
  return r;
}
