import { wrap, type Requirement } from '../access/contract.js';
import { canonicalPath } from '../page-urls.js';
import type { PlannedPage } from '../types.js';

const xmlEscape = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** `https://docs.example.com` from a bare hostname; undefined without one. */
export function siteOrigin(domain: string | undefined): string | undefined {
  return domain ? `https://${domain}` : undefined;
}

/**
 * sitemap.xml with the extensionless canonical URLs of the pages a visitor can reach from the
 * navigation. Hidden pages (outside the navigation or under `hidden`) and redirects are left out,
 * as Mintlify leaves them out of search and its sitemap, unless the config's `seo.indexing` is
 * `all`, which puts the hidden pages in too. The sitemap protocol wants absolute URLs:
 * with a domain they are `https://<domain>/…`; without one they stay root-relative.
 */
export function buildSitemap(pages: readonly PlannedPage[], domain?: string, indexing: 'navigable' | 'all' = 'navigable', access?: ReadonlyMap<string, Requirement>): string {
  const origin = siteOrigin(domain) ?? '';
  const urls = pages
    .filter((p) => indexing === 'all' || !p.hidden)
    .map((p) => {
      const entry = `  <url><loc>${xmlEscape(origin + canonicalPath(p.slug))}</loc></url>`;
      // Reader access: a restricted page's entry is a fragment only its readers receive.
      const req = access?.get(p.slug);
      return req && req !== 'public' ? wrap(req, entry) : entry;
    });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** robots.txt: the site is meant to be read, and crawlers inside the network find the sitemap. */
export function buildRobots(domain?: string): string {
  const origin = siteOrigin(domain);
  return `User-agent: *\nAllow: /\n${origin ? `Sitemap: ${origin}/sitemap.xml\n` : ''}`;
}
