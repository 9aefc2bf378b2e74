import type { BuildWarning, SiteConfig } from '../types.js';

/** Mintlify's dynamic redirect syntax (`:slug*`, `:id`, `*`) needs a server; a static file cannot match it. */
const DYNAMIC = /(^|\/):[^/]+|\*/;

/**
 * Config redirects → static redirect pages (`from.html` with a meta refresh and a canonical
 * link). Dynamic patterns are skipped with a warning, as are redirects that would overwrite a
 * real page (the page wins: that is what a visitor of the live site would see as well).
 */
export function planRedirects(
  config: SiteConfig,
  pageSlugs: ReadonlySet<string>,
  configFile: string,
  warnings: BuildWarning[],
): { from: string; to: string }[] {
  const out: { from: string; to: string }[] = [];
  const seen = new Set<string>();
  for (const r of config.redirects) {
    const from = r.source.trim().replace(/[?#].*$/, '').replace(/^\/+/, '').replace(/\/+$/, '').replace(/\.html?$/, '');
    if (DYNAMIC.test(from) || DYNAMIC.test(r.destination)) {
      warnings.push({
        code: 'redirect-dynamic',
        message: `redirect ${r.source} → ${r.destination} uses a pattern; a static bundle cannot serve it, skipped`,
        file: configFile,
      });
      continue;
    }
    if (from.split('/').some((seg) => seg === '' || seg === '.' || seg === '..') || /[\\\u0000-\u001f]/.test(from)) {
      warnings.push({
        code: 'redirect-invalid',
        message: `redirect ${r.source} → ${r.destination}: the source is not a plain path inside the site, skipped`,
        file: configFile,
      });
      continue;
    }
    if (from === '' || pageSlugs.has(from) || (from === 'index' && pageSlugs.has('index'))) {
      warnings.push({
        code: 'redirect-shadowed',
        message: `redirect ${r.source} → ${r.destination} would replace an existing page, skipped`,
        file: configFile,
      });
      continue;
    }
    if (seen.has(from)) continue;
    seen.add(from);
    out.push({ from, to: r.destination });
  }
  return out;
}
