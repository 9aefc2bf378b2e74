/**
 * The assistant, the discovery API and the MCP server over a bundle with reader access (issue
 * 40): what a caller's view may not see is never retrieved for it. The bundle's index holds every
 * section; each keeps its page's requirement (the requirement of the page's `.md` in the access
 * map), and every result handed out passes through here. Callers with an assistant key or none
 * (discovery API, /mcp) have no reader session: ANONYMOUS, public pages only.
 */
import type { ReaderView } from '../../renderer/access/contract.js';
import { filterMarked } from '../../renderer/access/filter.js';
import type { RetrievalSection } from '../../renderer/retrieval/types.js';
import { visible, type SiteAccess } from '../site/access-gate.js';
import { MAX_HITS } from '../retrieval/index-queries.js';
import { normalisePagePath, type SiteRetrieval } from './retrieval.js';

/** Candidates asked for per result wanted: restricted sections are dropped after ranking. */
const OVERFETCH = 4;

export function viewRetrieval(inner: SiteRetrieval, access: SiteAccess, view: ReaderView): SiteRetrieval {
  // A page is its `.md` and its HTML (`x.html` or `x/index.html`): all must be visible.
  const pageVisible = (pagePath: string): boolean =>
    visible(access, `${pagePath}.md`, view) &&
    (pagePath === 'index' ? visible(access, 'index.html', view) : visible(access, `${pagePath}.html`, view) && visible(access, `${pagePath}/index.html`, view));
  const sectionVisible = (s: RetrievalSection) => pageVisible(s.path);
  const more = (limit: number) => Math.min(MAX_HITS, Math.max(limit, limit * OVERFETCH));
  return {
    info: () => inner.info(),
    build: () => inner.build(),
    async search(query, opts) {
      const found = await inner.search(query, { ...opts, limit: more(opts.limit) });
      return found.filter(sectionVisible).slice(0, opts.limit);
    },
    async keywordHits(query, scope, limit) {
      const hits = await inner.keywordHits(query, scope, more(limit));
      const sections = await inner.sections(hits.map((h) => h.id));
      const ok = new Set(hits.filter((_, i) => sections[i] && sectionVisible(sections[i]!)).map((h) => h.id));
      return hits.filter((h) => ok.has(h.id)).slice(0, limit);
    },
    async sections(ids) {
      // Ids come from this view's own hits, but a mask-ranked id may be any section: filter again.
      return (await inner.sections(ids)).filter(sectionVisible);
    },
    // The bundle's sections in order, for embedding them: vectors are internal, never handed out.
    sectionRange: (offset, limit) => inner.sectionRange(offset, limit),
    scopeMask: (scope) => inner.scopeMask(scope),
    scopeOf: (pagePath) => inner.scopeOf(pagePath),
    page(pagePath) {
      const p = normalisePagePath(pagePath);
      if (!p || !pageVisible(p)) return undefined;
      const page = inner.page(p);
      if (!page) return undefined;
      return access.marked.has(`${p}.md`) ? { ...page, content: filterMarked(page.content, view) } : page;
    },
    hasPage(pagePath) {
      const p = normalisePagePath(pagePath);
      return !!p && pageVisible(p) && inner.hasPage(p);
    },
  };
}
