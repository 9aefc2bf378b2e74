/**
 * The same string, stored one byte a character when every character fits in one. V8 stores a
 * string two bytes a character when it was made from one that held a wider character, and
 * keeps slices and replacements of it so even when they are plain ASCII: the rendered HTML of
 * every page went through private-use placeholders (state.ts) and came out two-byte. UTF-8
 * encoding a two-byte page cost about six times a one-byte one (0.26 against 0.04 ms for an
 * 86 KB API page), and every later text pass over it reads twice the bytes. The characters are
 * unchanged; a string holding a character past U+00FF is returned as it is.
 */
export function oneByte(s: string): string {
  if (s === '') return s;
  // Latin-1 keeps a character's low byte only: the copy equals the string exactly when every
  // character fits (cheaper than scanning for a wider one first, and the copy is wanted then).
  const narrow = Buffer.from(s, 'latin1').toString('latin1');
  return narrow === s ? narrow : s;
}
