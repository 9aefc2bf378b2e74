import { slugify } from '../plan/slugs.js';
import type { NavSection } from '../types.js';

/**
 * A search scope: the pages a reader searches by default, one per language × version of the site
 * (a site without either has one scope, `all`). Tabs, products, dropdowns and anchors are not
 * scopes of their own: readers search across the tabs of their version (Mintlify does too), and
 * each result names its tab in its section label. See docs/site-layout.md, "Client search".
 */
export interface SearchScope {
  key: string;
  language?: string;
  version?: string;
  /**
   * Reader access (issue 40): a shard of a scope holding only pages that need `requirement`;
   * `scope` is the key of the scope it belongs to. Absent for the scope's public shard.
   */
  scope?: string;
  requirement?: import('../access/contract.js').Requirement;
}

/** Section id → scope, and the scopes in navigation order. */
export interface SearchScopes {
  bySection: Map<string, SearchScope>;
  list: SearchScope[];
}

export const DEFAULT_SCOPE = 'all';

export function searchScopes(sections: readonly NavSection[]): SearchScopes {
  const bySection = new Map<string, SearchScope>();
  const byName = new Map<string, SearchScope>();
  const usedKeys = new Set<string>();
  const list: SearchScope[] = [];
  for (const section of sections) {
    const language = section.trail.find((t) => t.kind === 'language')?.title;
    const version = section.trail.find((t) => t.kind === 'version')?.title;
    const name = `${language ?? ''}\u0000${version ?? ''}`;
    let scope = byName.get(name);
    if (!scope) {
      const base = [language, version].filter((p): p is string => p !== undefined).map((p) => slugify(p) || 'x').join('--') || DEFAULT_SCOPE;
      let key = base;
      for (let n = 2; usedKeys.has(key); n++) key = `${base}-${n}`;
      usedKeys.add(key);
      scope = { key, ...(language !== undefined ? { language } : {}), ...(version !== undefined ? { version } : {}) };
      byName.set(name, scope);
      list.push(scope);
    }
    bySection.set(section.id, scope);
  }
  if (list.length === 0) list.push({ key: DEFAULT_SCOPE });
  return { bySection, list };
}
