/**
 * Indices of `strings` sorted in UTF-8 byte order (SQLite's BINARY collation, what the reports
 * promise for ties). JavaScript's `<` compares UTF-16 code units, which agrees with UTF-8 byte
 * order unless a string holds a surrogate or a character from U+E000 up; only then are the
 * strings compared as bytes (about ten times slower over 100,000 paths).
 */
export function utf8Order(strings: readonly string[]): number[] {
  const ids = strings.map((_, i) => i);
  if (!strings.some((s) => /[\uD800-\uFFFF]/.test(s))) return ids.sort((a, b) => (strings[a]! < strings[b]! ? -1 : strings[a]! > strings[b]! ? 1 : 0));
  const bytes = strings.map((s) => Buffer.from(s, 'utf8'));
  return ids.sort((a, b) => Buffer.compare(bytes[a]!, bytes[b]!));
}
