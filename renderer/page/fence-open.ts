/**
 * Where a fenced code block opens, by CommonMark's rule as micromark (MDX) applies it: a run of
 * three or more backticks or tildes at the start of a line (after any indentation, since MDX has
 * no indented code, and after a list marker). A backtick fence's info string holds no backtick,
 * so ```` ```custom_id``` is kept ```` is a line of inline code, not a fence. One rule for every
 * pass that skips code (the MDX reader, `{{variables}}`, the Markdown copy), and one rule for
 * the line that closes a fence.
 */
const FENCE_OPEN_RE = /[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(`{3,}|~{3,})/y;

/** The fence run opening at offset `i` (a line start) and the offset after it, or undefined. */
export function fenceOpenAt(src: string, i: number): { fence: string; end: number } | undefined {
  FENCE_OPEN_RE.lastIndex = i;
  const m = FENCE_OPEN_RE.exec(src);
  const fence = m?.[1];
  if (!m || !fence) return undefined;
  const end = i + m[0].length;
  if (fence[0] === '`') {
    const lineEnd = src.indexOf('\n', end);
    const info = lineEnd === -1 ? src.slice(end) : src.slice(end, lineEnd);
    if (info.includes('`')) return undefined;
  }
  return { fence, end };
}

/** The fence run a whole line opens, or undefined. */
export function fenceOpening(line: string): string | undefined {
  return fenceOpenAt(line, 0)?.fence;
}

/** Whether a line closes the fence `fence` opened: only that character, at least as many, spaces around. */
export function closesFence(line: string, fence: string): boolean {
  const t = line.trim();
  return t.length >= fence.length && [...t].every((c) => c === fence[0]);
}
