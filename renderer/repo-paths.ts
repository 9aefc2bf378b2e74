import path from 'node:path';

/**
 * References from one repository file to another (a page's link, a stylesheet's `url()`, a font
 * in the config), resolved the same way by every stage that rewrites them to bundle URLs.
 */

/** `http://`, `https://`, `//host`: anything fetched from elsewhere. */
const OUTSIDE_RE = /^(?:[a-z][a-z\d+.-]*:)?\/\//i;

/** A reference the bundle cannot serve: it names another host. */
export function isOutsideBundle(ref: string): boolean {
  return OUTSIDE_RE.test(ref.trim());
}

/** `x.woff2?v=3#iefix` → `{ path: 'x.woff2', suffix: '?v=3#iefix' }`. */
export function splitUrlSuffix(url: string): { path: string; suffix: string } {
  const cut = url.search(/[?#]/);
  return cut === -1 ? { path: url, suffix: '' } : { path: url.slice(0, cut), suffix: url.slice(cut) };
}

function safeDecode(p: string): string {
  try {
    return decodeURI(p);
  } catch {
    return p;
  }
}

/**
 * A local reference written in `fromFile` as a repository-relative path (no leading slash):
 * `/images/a.png` from the root, `../a.png` from the file's folder. Undefined if it escapes.
 */
export function toRepoPath(ref: string, fromFile: string): string | undefined {
  const rel = joinFromFile(ref, fromFile);
  if (rel === '..' || rel.startsWith('../')) return undefined;
  return rel;
}

/**
 * A page's link or image as the reader's browser resolves it on the published site: like
 * toRepoPath, but `..` past the root stays at the root (`../../guides/a` written in
 * `tools/page.mdx` is `/guides/a`), which is what the same link does on Mintlify's site.
 */
export function toSitePath(ref: string, fromFile: string): string {
  return joinFromFile(ref, fromFile).replace(/^(?:\.\.(?:\/|$))+/, '');
}

function joinFromFile(ref: string, fromFile: string): string {
  const decoded = safeDecode(ref);
  const joined = decoded.startsWith('/') ? decoded.slice(1) : path.posix.join(path.posix.dirname(fromFile), decoded);
  // normalize leaves a lone "." for the folder itself and never a leading "./" otherwise; a
  // leading ".." must stay whole, or an escaping path reads as one inside the repository.
  const rel = path.posix.normalize(joined);
  return rel === '.' ? '' : rel;
}
