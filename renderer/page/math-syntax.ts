/**
 * Where `$…$` and `$$…$$` math starts and ends. The MDX tokenizer takes math out of the text
 * itself (braces inside TeX are not expressions, and marked never has to look for `$`).
 */

/** `$$…$$`, on its own lines or inside a line. */
const DISPLAY_MATH_RE = /\$\$(?!\$)([^$]{1,20000}?)\$\$/y;
/**
 * Inline `$…$`, with the usual guards against prices: no space inside the dollars, no digit or
 * letter right after the closing one, and no `$/unit)` or `($` shapes (prices written as "$/sec").
 */
const INLINE_MATH_RE = /\$(?![\s$/),.])((?:\\\$|[^$\n]){1,300}?)(?<![\s\\(])\$(?![\d$A-Za-z])/y;

export interface MathSpan {
  end: number;
  tex: string;
  display: boolean;
}

/** The math starting at `src[i] === '$'`, or undefined when it is not math. */
export function matchMath(src: string, i: number): MathSpan | undefined {
  DISPLAY_MATH_RE.lastIndex = i;
  const d = DISPLAY_MATH_RE.exec(src);
  if (d?.[1] !== undefined && d[1].trim() !== '') return { end: i + d[0].length, tex: d[1].trim(), display: true };
  INLINE_MATH_RE.lastIndex = i;
  const m = INLINE_MATH_RE.exec(src);
  return m?.[1] !== undefined ? { end: i + m[0].length, tex: m[1], display: false } : undefined;
}
