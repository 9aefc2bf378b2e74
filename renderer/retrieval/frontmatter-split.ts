/** The page body after its YAML frontmatter (the renderer has already parsed and validated it). */
export function splitFrontmatter(source: string): string {
  const text = source.replace(/^\uFEFF/, '');
  const open = /^---[ \t]*\r?\n/.exec(text);
  if (!open) return text;
  const close = /\r?\n---[ \t]*(\r?\n|$)/.exec(text.slice(open[0].length - 1));
  if (!close) return text;
  return text.slice(open[0].length - 1 + close.index + close[0].length);
}
