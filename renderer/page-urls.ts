/**
 * The one place that decides how a page is laid out in the bundle and how it is linked.
 *
 * A bundle must work on a plain static file server (python's http.server, nginx with its default
 * config, an object store's website endpoint) with no rewrite rules, so each page is a directory
 * index: the page `guides/intro` is the file `guides/intro/index.html` and every link to it is
 * `/guides/intro/`, which any such server maps to that file. The appliance's site listener answers
 * `/guides/intro` and `/guides/intro/` alike (app/site/request-path.ts), and the canonical and
 * sitemap URLs stay extensionless (`/guides/intro`), as on Mintlify. Links stay root-absolute: a
 * bundle is served at the root of its host (docs/site-layout.md says why).
 */

/** `guides/intro` → `guides/intro/index.html`; the home page `index` → `index.html`. */
export function pageFilePath(slug: string): string {
  return slug === 'index' ? 'index.html' : `${slug}/index.html`;
}

/** What a link to a page says: `/guides/intro/`; the home page is `/`. */
export function pageHref(slug: string): string {
  return slug === 'index' ? '/' : `/${slug}/`;
}

/** The page's canonical URL path (canonical link, sitemap, analytics): `/guides/intro`, `/`. */
export function canonicalPath(slug: string): string {
  return slug === 'index' ? '/' : `/${slug}`;
}

/** A last segment that names a file (`a.pdf`, `spec.json`) rather than a page. */
const FILE_SEGMENT_RE = /\.[a-z][a-z0-9]{0,7}$/i;

/**
 * An in-site href written without knowing whether it names a page (a config link, a redirect
 * destination) in the form a plain static server resolves: `/x` and `/x/index` → `/x/`, query
 * and fragment kept; `/`, a path that already ends in `/` and a file path (`/a/spec.json`) stay
 * as they are. Anything that is not a root-relative path (`https:`, `#top`, `?q`) is returned
 * unchanged.
 */
export function portableHref(href: string): string {
  if (!href.startsWith('/') || href.startsWith('//')) return href;
  const cut = href.search(/[?#]/);
  let p = cut === -1 ? href : href.slice(0, cut);
  const suffix = cut === -1 ? '' : href.slice(cut);
  if (p.endsWith('/')) return href;
  if (p === '/index' || p.endsWith('/index')) p = p.slice(0, -'index'.length);
  else if (FILE_SEGMENT_RE.test(p.slice(p.lastIndexOf('/') + 1))) return href;
  else p += '/';
  return p + suffix;
}
