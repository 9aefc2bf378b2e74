/**
 * Cache-Control per bundle path. Content-hashed assets (`_static/site.3f2a9c1b.css`,
 * `_assets/img/logo.3f2a9c1b.png`, a dotless name with the hash appended) never change under
 * their name: a year, immutable. Everything else (HTML, the search index, sitemap) changes with
 * each bundle under the same URL: revalidate every time (cheap with ETag and 304).
 */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

const HASHED_NAME = /\.[0-9a-f]{8,}(\.[A-Za-z0-9]+)?$/;
/** Folders whose hashed names are content hashes: the search index's chunks and shared sidebars. */
const HASHED_FOLDERS = ['_static/', '_assets/', '_search/', '_sidebar/'];

export function cacheControlFor(rel: string): string {
  if (HASHED_FOLDERS.some((f) => rel.startsWith(f)) && HASHED_NAME.test(rel.slice(rel.lastIndexOf('/') + 1))) return IMMUTABLE;
  return REVALIDATE;
}
