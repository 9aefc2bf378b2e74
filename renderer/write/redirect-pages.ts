import { pageFilePath } from '../page-urls.js';
import type { BuildWarning, BundleRedirect, SitePlan } from '../types.js';
import { MANIFEST_PATH } from './manifest.js';
import { NGINX_REDIRECTS_PATH } from './nginx-redirects.js';
import type { SiteFiles } from './site-files.js';

/** Files written after the redirect pages, which a redirect must not collide with either. */
const WRITTEN_LATER = [MANIFEST_PATH, NGINX_REDIRECTS_PATH];

/**
 * Write each plain redirect as its page (`from/index.html`), unless that path collides with a file
 * already in the bundle: a redirect from `/a.md` against page `a`'s Markdown copy `a.md`, one from
 * `/sitemap.xml` against the sitemap. A file system cannot hold the file `a.md` and the directory
 * `a.md/` together, and on the live site the file answers that URL anyway, so the file wins and
 * the redirect is skipped with a `redirect-collides` warning. Returns the rules still standing,
 * for the nginx snippet and the manifest, so neither sends that URL elsewhere either.
 */
export function writeRedirectPages(
  site: SiteFiles,
  plan: Pick<SitePlan, 'redirects' | 'redirectRules' | 'pages'>,
  configFile: string,
  render: (to: string) => Uint8Array,
  warnings: BuildWarning[],
): BundleRedirect[] {
  const pageSlugs = new Set(plan.pages.map((p) => p.slug));
  const skipped = new Set<string>();
  for (const r of plan.redirects) {
    const out = pageFilePath(r.from);
    const clash = site.clashOf(out) ?? WRITTEN_LATER.find((f) => out.startsWith(`${f}/`));
    if (clash === undefined) {
      site.add(out, render(r.to));
      continue;
    }
    // The same path twice (a redirect from `a/index.html` read as `a/index`…) was skipped silently before; so it stays.
    if (clash === out) continue;
    skipped.add(`/${r.from}`);
    const file = clash.replace(/\/$/, '');
    const copyOf = file.endsWith('.md') && pageSlugs.has(file.slice(0, -'.md'.length)) ? file.slice(0, -'.md'.length) : undefined;
    const what = copyOf !== undefined ? `the Markdown copy of the page /${copyOf}` : `a file of the bundle`;
    warnings.push({ code: 'redirect-collides', message: `redirect /${r.from} → ${r.to}: /${file} is ${what}, which wins; skipped`, file: configFile });
  }
  return (plan.redirectRules ?? []).filter((rule) => !skipped.has(rule.source));
}
