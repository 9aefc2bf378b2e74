import { BundleError } from './errors.js';

/**
 * Check one archive entry name and return it normalised (`a/b/c.html`, no trailing slash).
 * Rejected: empty names, absolute paths (`/x`, `C:x`, `\\server`), backslashes anywhere (a
 * Windows-made zip can smuggle `..\\..\\x` past a `/`-only check), `.`/`..` segments, empty
 * segments (`a//b`), NUL and other control characters. Rejection names the entry.
 */
export function safeEntryName(raw: string, archive: string): string {
  const fail = (why: string) => new BundleError(`${archive}: entry ${JSON.stringify(raw)} rejected: ${why}`);
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
  for (const segment of name.split('/')) {
    if (segment === '') throw fail('empty path segment');
    if (segment === '..') throw fail('path goes outside the bundle root ("..")');
    if (segment === '.') throw fail('"." segment (not normalised)');
  }
  return name;
}
