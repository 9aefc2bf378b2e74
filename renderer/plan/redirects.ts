import path from 'node:path';
import { compileRedirect, isPatternSource, trimSlashes, type CompiledRedirect } from '../redirect-patterns.js';
import { splitUrlSuffix } from '../repo-paths.js';
import type { BuildWarning, BundleRedirect, SiteConfig } from '../types.js';
import { normaliseRef } from './slugs.js';

const EXTERNAL_RE = /^[a-z][a-z\d+.-]*:|^\/\//i;
const MAX_HOPS = 5;

export interface PlannedRedirects {
  /** Static redirects, written as meta-refresh pages: `from` is a slug-like path (no leading slash). */
  pages: { from: string; to: string }[];
  /** Every usable redirect, normalised, in config order: the nginx snippet and (patterns) the manifest. */
  rules: BundleRedirect[];
}

/**
 * A redirect destination as a site URL, normalised the way content links are: `x.mdx`,
 * `/x/index`, `/x/` and `./x` all become `/x` (query and hash kept); a path without a leading
 * slash is read from the site root; outside URLs are kept as written.
 */
export function normaliseDestination(destination: string): string {
  const d = destination.trim();
  if (EXTERNAL_RE.test(d)) return d;
  const { path: p, suffix } = splitUrlSuffix(d);
  let rel = trimSlashes(path.posix.normalize(`/${p}`)).replace(/\.mdx?$/i, '');
  if (rel === 'index') rel = '';
  else if (rel.endsWith('/index')) rel = rel.slice(0, -'/index'.length);
  return `/${rel}${suffix}`;
}

/**
 * A destination every writer of redirects can carry as it is (the redirect page's meta refresh,
 * the manifest the site listener reads, the nginx snippet): a site path or an http(s) URL, with
 * no control characters, spaces, quotes or markup. A `javascript:` destination, or one that
 * would break out of an attribute, is refused once here rather than escaped three ways.
 */
function destinationProblem(to: string): string | undefined {
  if (/[\u0000-\u001f\s"'<>\\`]/.test(to)) return 'the destination holds spaces, quotes, markup or control characters';
  if (/^[a-z][a-z0-9+.-]*:/i.test(to) && !/^https?:\/\/[^/]/i.test(to)) return 'the destination is neither a site path nor an http(s) URL';
  if (/^\/\//.test(to)) return 'the destination is a protocol-relative URL';
  return undefined;
}

/**
 * Config redirects → static redirect pages (`from.html` with a meta refresh and a canonical
 * link) and the list of rules the appliance's site listener and the nginx snippet apply, Mintlify
 * patterns (`/old/:slug*`, `/articles/concepts-*`) included. A redirect whose source would
 * overwrite a real page is skipped (the page wins, as on the live site); one whose target is not
 * a page, a file or another redirect is kept, with a warning.
 */
export function planRedirects(
  config: SiteConfig,
  pageSlugs: ReadonlySet<string>,
  assetPaths: ReadonlySet<string>,
  configFile: string,
  warnings: BuildWarning[],
): PlannedRedirects {
  const pages: { from: string; to: string }[] = [];
  const rules: BundleRedirect[] = [];
  const compiled: { rule: BundleRedirect; match: CompiledRedirect['match'] }[] = [];
  const seen = new Set<string>();
  for (const r of config.redirects) {
    const from = r.source.trim().replace(/[?#].*$/, '').replace(/^\/+/, '').replace(/\/+$/, '').replace(/\.html?$/, '');
    const to = normaliseDestination(r.destination);
    const status = r.permanent === false ? 307 : 308;
    const problem =
      from.split('/').some((seg) => seg === '' || seg === '.' || seg === '..') || /[\\\u0000-\u001f\s]/.test(from)
        ? 'the source is not a plain path inside the site'
        : destinationProblem(to);
    if (problem) {
      warnings.push({ code: 'redirect-invalid', message: `redirect ${r.source} → ${r.destination}: ${problem}, skipped`, file: configFile });
      continue;
    }
    if (seen.has(from)) continue;
    if (isPatternSource(from)) {
      const pattern = compileRedirect(from, to);
      if ('error' in pattern) {
        warnings.push({ code: 'redirect-invalid', message: `redirect ${r.source} → ${r.destination}: ${pattern.error}, skipped`, file: configFile });
        continue;
      }
      seen.add(from);
      const rule: BundleRedirect = { source: `/${from}`, destination: to, status };
      rules.push(rule);
      compiled.push({ rule, match: pattern.match });
      continue;
    }
    if (pageSlugs.has(from) || (from === 'index' && pageSlugs.has('index'))) {
      warnings.push({
        code: 'redirect-shadowed',
        message: `redirect ${r.source} → ${r.destination} would replace an existing page, skipped`,
        file: configFile,
      });
      continue;
    }
    seen.add(from);
    pages.push({ from, to });
    const rule: BundleRedirect = { source: `/${from}`, destination: to, status };
    rules.push(rule);
    compiled.push({ rule, match: (p) => (p === from ? to : undefined) });
  }

  // Where a destination ends up: a page, a file, the root (always written), outside, or nowhere.
  const lands = (destination: string): 'ok' | 'missing' | 'loop' => {
    let current = destination;
    for (let hop = 0; hop <= MAX_HOPS; hop++) {
      if (EXTERNAL_RE.test(current)) return 'ok';
      const slug = normaliseRef(current);
      const rel = trimSlashes(splitUrlSuffix(current).path);
      if (slug === 'index' || pageSlugs.has(slug) || assetPaths.has(rel)) return 'ok';
      const next = compiled.map((c) => c.match(slug)).find((t) => t !== undefined);
      if (next === undefined) return 'missing';
      current = next;
    }
    return 'loop';
  };
  for (const rule of rules) {
    // A destination that takes captures (`/v2/:slug*`) depends on the request: not checked.
    if (/(^|\/):[A-Za-z_]|\*/.test(splitUrlSuffix(rule.destination).path)) continue;
    const verdict = lands(rule.destination);
    if (verdict === 'ok') continue;
    warnings.push({
      code: verdict === 'loop' ? 'redirect-loop' : 'redirect-missing-target',
      message:
        verdict === 'loop'
          ? `redirect ${rule.source} → ${rule.destination} goes round in a loop of redirects`
          : `redirect ${rule.source} → ${rule.destination}: no page, file or other redirect is at ${splitUrlSuffix(rule.destination).path}, so visitors will get a 404`,
      file: configFile,
    });
  }
  return { pages, rules };
}
