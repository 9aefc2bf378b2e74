/**
 * renderMarkdown's second shortcut, beside the plain line: paragraphs of plain words with inline
 * code (`Available options: \`usd\`, \`eur\``, `Required range: \`0 <= x <= 100\``). Generated
 * API pages have about ten such field texts a page, each a marked call (≈ 30 µs) for what escapes
 * and `<code>` make. Only text marked reads as nothing more is taken (a randomized test in
 * test/renderer/page/code-span-text.test.ts checks every accepted text against marked):
 *
 * - one line per paragraph, paragraphs apart by exactly one blank line (block mode only; there
 *   the text may also begin and end with line breaks, which marked skips);
 * - code spans of one backtick, not empty, holding no line break and no space at either end
 *   (marked strips one such pair), never back to back (two backticks are another delimiter);
 * - between them the plain line's characters only (no markdown character, no `$`, `&`, `<`, `\`,
 *   `@`), no `://` or `www.` (autolinks), a paragraph starting with a letter or a code span and
 *   ending without a space.
 */
import { escapeHtml } from './html.js';

const PLAIN_PART_RE = /^[A-Za-z0-9\u00C0-\u024F ,.;:'"()?/%+=-]*$/;
const FIRST_RE = /^[A-Za-z\u00C0-\u024F]/;
const CODE_RE = /^[^`\n ](?:[^`\n]*[^`\n ])?$/;
const AUTOLINK_RE = /:\/\/|www\./i;

/** One paragraph's inline HTML (code spans optional), or undefined when marked might read more into it. */
function paragraph(text: string): string | undefined {
  const parts = text.split('`');
  // An odd number of backticks leaves one unmatched: marked decides what that is.
  if (parts.length % 2 === 0 || (parts.length === 1 && parts[0] === '')) return undefined;
  let html = '';
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    if (i % 2 === 1) {
      if (!CODE_RE.test(part)) return undefined;
      html += `<code>${escapeHtml(part)}</code>`;
    } else {
      // Two spans back to back make a run of two backticks, another delimiter to marked.
      if (part === '' && i > 0 && i < parts.length - 1) return undefined;
      if (!PLAIN_PART_RE.test(part) || AUTOLINK_RE.test(part)) return undefined;
      html += escapeHtml(part);
    }
  }
  const first = parts[0] as string;
  const last = parts[parts.length - 1] as string;
  if (first !== '' && !FIRST_RE.test(first)) return undefined;
  if (last.endsWith(' ')) return undefined;
  return html;
}

/** marked's HTML for `markdown` when it is plain words and code spans only, else undefined. */
export function codeSpanText(markdown: string, mode: 'block' | 'inline'): string | undefined {
  if (!markdown.includes('`')) return undefined;
  if (mode === 'inline') return markdown.includes('\n') ? undefined : paragraph(markdown);
  let start = 0;
  let end = markdown.length;
  while (start < end && markdown.charCodeAt(start) === 10) start++;
  while (end > start && markdown.charCodeAt(end - 1) === 10) end--;
  let html = '';
  for (const text of markdown.slice(start, end).split('\n\n')) {
    if (text === '' || text.includes('\n')) return undefined;
    const inner = paragraph(text);
    if (inner === undefined) return undefined;
    html += `<p>${inner}</p>\n`;
  }
  return html;
}
