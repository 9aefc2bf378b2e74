import { BundleError } from './errors.js';

/**
 * Deepest entry accepted (directories in its path, plus the file). A docs site nests a handful of
 * levels; thousands of levels are only ever an attack on whatever walks the tree afterwards.
 */
export const MAX_ENTRY_DEPTH = 64;
/** Longest entry name in UTF-8 bytes: with the state dir in front it stays well under PATH_MAX (4096). */
export const MAX_ENTRY_NAME_BYTES = 1024;
/** Longest single path segment in UTF-8 bytes (NAME_MAX of common filesystems). */
export const MAX_SEGMENT_BYTES = 255;

/**
 * Check one archive entry name and return it normalised (`a/b/c.html`, no trailing slash).
 * Rejected: empty names, absolute paths (`/x`, `C:x`, `\\server`), backslashes anywhere (a
 * Windows-made zip can smuggle `..\\..\\x` past a `/`-only check), `.`/`..` segments, empty
 * segments (`a//b`), NUL and other control characters, and names deeper or longer than the
 * limits above (coded ENTRY_TOO_DEEP / ENTRY_NAME_TOO_LONG). Rejection names the entry.
 */
export function safeEntryName(raw: string, archive: string): string {
  const shown = raw.length > 200 ? `${JSON.stringify(raw.slice(0, 200)).slice(0, -1)}…" (${raw.length} characters)` : JSON.stringify(raw);
  const fail = (why: string, code?: 'ENTRY_TOO_DEEP' | 'ENTRY_NAME_TOO_LONG') => new BundleError(`${archive}: entry ${shown} rejected: ${why}`, code ? { code } : undefined);
  let name = raw;
  // tar writes `./x` for entries made with `tar -C dir .`; the leading `./` carries no meaning.
  while (name.startsWith('./')) name = name.slice(2);
  if (name.endsWith('/')) name = name.slice(0, -1);
  if (name === '' || name === '.') return '';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) throw fail('control character in the name');
  if (name.includes('\\')) throw fail('backslash in the name');
  if (name.startsWith('/')) throw fail('absolute path');
  if (/^[A-Za-z]:/.test(name)) throw fail('drive letter');
  const segments = name.split('/');
  if (segments.length > MAX_ENTRY_DEPTH) throw fail(`${segments.length} levels deep, more than ${MAX_ENTRY_DEPTH}`, 'ENTRY_TOO_DEEP');
  const bytes = Buffer.byteLength(name);
  if (bytes > MAX_ENTRY_NAME_BYTES) throw fail(`name is ${bytes} bytes long, more than ${MAX_ENTRY_NAME_BYTES}`, 'ENTRY_NAME_TOO_LONG');
  for (const segment of segments) {
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) throw fail(`a path segment is longer than ${MAX_SEGMENT_BYTES} bytes`, 'ENTRY_NAME_TOO_LONG');
    if (segment === '') throw fail('empty path segment');
    if (segment === '..') throw fail('path goes outside the bundle root ("..")');
    if (segment === '.') throw fail('"." segment (not normalised)');
  }
  return name;
}
