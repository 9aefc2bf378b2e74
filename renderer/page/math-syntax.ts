/**
 * Where `$…$` and `$$…$$` math starts and ends. Shared by the MDX tokenizer (braces inside math
 * are TeX, not expressions) and the marked extensions (which render it), so both agree.
 */

/** `$$…$$` on its own lines (a block). */
export const BLOCK_MATH_RE = /^ {0,3}\$\$([\s\S]+?)\$\$[ \t]*(?:\n+|$)/;
/** `$$…$$` inside a line (display math in running text). */
export const INLINE_DISPLAY_MATH_RE = /^\$\$(?!\$)([^$]+?)\$\$/;
/**
 * Inline `$…$`, with the usual guards against prices: no space inside the dollars, no digit or
 * letter right after the closing one, and no `$/unit)` or `($` shapes (prices written as "$/sec").
 */
export const INLINE_MATH_RE = /^\$(?![\s$/),.])((?:\\\$|[^$\n]){1,300}?)(?<![\s\\(])\$(?![\d$A-Za-z])/;

const DISPLAY_STICKY = new RegExp(INLINE_DISPLAY_MATH_RE.source.slice(1), 'y');
const INLINE_STICKY = new RegExp(INLINE_MATH_RE.source.slice(1), 'y');

/** The offset just past the math starting at `src[i] === '$'`, or -1 when it is not math. */
export function mathEnd(src: string, i: number): number {
  DISPLAY_STICKY.lastIndex = i;
  const d = DISPLAY_STICKY.exec(src);
  if (d) return i + d[0].length;
  INLINE_STICKY.lastIndex = i;
  const m = INLINE_STICKY.exec(src);
  return m ? i + m[0].length : -1;
}
