/** What a request path asks for: the bundle files to try in order, or why it is refused. */
export type PathLookup = { ok: true; candidates: string[] } | { ok: false; status: 400 | 404 | 414 };

/** Longer paths are a 414 before the filesystem sees them (Linux's PATH_MAX). */
export const MAX_PATH_BYTES = 4096;
/** A longer segment cannot name a file on the filesystems a site lives on (NAME_MAX): a 404. */
const MAX_SEGMENT_BYTES = 255;

/**
 * `/guides/intro` → `guides/intro`, `guides/intro.html`, `guides/intro/index.html` (as nginx's
 * `try_files $uri $uri.html $uri/index.html`); `/` → `index.html`. The path is decoded once:
 * `%2e%2e` becomes `..` and is refused, `%252e` stays the literal `%2e` (a file that does not
 * exist), a NUL or a bad escape is a 400, a backslash, `.`/`..` or hidden segment is a 404, a
 * path past MAX_PATH_BYTES a 414 and a segment past 255 bytes a 404. The result is relative and
 * normalised, so joining it to the site root cannot leave the root.
 */
export function lookupPath(rawUrl: string): PathLookup {
  const q = rawUrl.indexOf('?');
  const raw = q === -1 ? rawUrl : rawUrl.slice(0, q);
  if (!raw.startsWith('/')) return { ok: false, status: 400 };
  if (raw.length > MAX_PATH_BYTES) return { ok: false, status: 414 };
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return { ok: false, status: 400 };
  }
  if (decoded.includes('\0')) return { ok: false, status: 400 };
  if (decoded.includes('\\')) return { ok: false, status: 404 };
  const trailingSlash = decoded.endsWith('/');
  const segments = decoded.split('/').filter((s) => s !== '');
  for (const s of segments) {
    if (s === '.' || s === '..') return { ok: false, status: 404 };
    if (s.startsWith('.') && s !== '.well-known') return { ok: false, status: 404 };
    if (s.length > MAX_SEGMENT_BYTES / 3 && Buffer.byteLength(s) > MAX_SEGMENT_BYTES) return { ok: false, status: 404 };
  }
  const rel = segments.join('/');
  if (rel === '') return { ok: true, candidates: ['index.html'] };
  // The hosted platform serves llms.txt and llms-full.txt under .well-known too; a file of the
  // bundle at that path comes first.
  if (rel === '.well-known/llms.txt' || rel === '.well-known/llms-full.txt') return { ok: true, candidates: [rel, rel.slice('.well-known/'.length)] };
  if (trailingSlash) return { ok: true, candidates: [`${rel}/index.html`, `${rel}.html`] };
  return { ok: true, candidates: [rel, `${rel}.html`, `${rel}/index.html`] };
}
