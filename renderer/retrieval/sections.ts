import { decodeEntities, escapeHtml } from '../page/html.js';
import type { ApiExamplePanel } from '../types.js';
import type { RetrievalSection } from './types.js';

/**
 * Characters kept per section. A section longer than this (a 200-parameter API reference) is
 * split into several entries under the same heading, so nothing of the page is lost to retrieval
 * and no single passage crowds the model's context.
 */
export const MAX_SECTION_CHARS = 2_400;

const BLOCK_DROP_RE = /<(script|style|svg|template|noscript)\b[^>]*>[\s\S]*?<\/\1>/gi;
const HEADING_RE = /<h([23])\b([^>]*)>([\s\S]*?)<\/h\1>/gi;
const ID_RE = /\bid="([^"]*)"/;
const BLOCK_END_TAGS = new Set(['p', 'li', 'pre', 'tr', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'table', 'ul', 'ol']);
const BR_RE = /^<br\s*\/?>$/i;

/** Whether the tag html[lt..gt] ends a line of text: the closing tag of a block, or `<br>`. */
function endsLine(html: string, lt: number, gt: number): boolean {
  const second = html.charCodeAt(lt + 1);
  // Only closing tags and <br> are sliced: most tags are opening tags with attributes.
  if (second === 47 /* / */) return gt - lt <= 12 && BLOCK_END_TAGS.has(html.slice(lt + 2, gt).toLowerCase());
  return (second === 98 || second === 66) && (html.charCodeAt(lt + 2) === 114 || html.charCodeAt(lt + 2) === 82) && BR_RE.test(html.slice(lt, gt + 1));
}

/**
 * Plain text of a fragment of rendered HTML, block ends as line breaks. One pass from tag to tag
 * (an API page's 45 KB of fields and highlighted code has thousands of tags; a regex pass per
 * kind of tag cost a millisecond a page). A run of tags leaves one separator, a line break if any
 * of them ends a line: the whitespace passes below would fold the run to that anyway, and had
 * hundreds of runs a page to fold.
 */
function text(html: string): string {
  let out = '';
  let at = 0;
  // The separator the tags since the last text leave: none, a space, or a line break.
  let sep: '' | ' ' | '\n' = '';
  for (;;) {
    const lt = html.indexOf('<', at);
    if (lt === -1) break;
    const gt = html.indexOf('>', lt + 1);
    // A `<` that opens no tag is text, as is everything after it.
    if (gt === -1) break;
    if (lt > at) {
      out += sep + html.slice(at, lt);
      sep = '';
    }
    if (sep !== '\n') sep = endsLine(html, lt, gt) ? '\n' : ' ';
    at = gt + 1;
  }
  out += sep + html.slice(at);
  return decodeEntities(out)
    // Runs only: a single space between words is left alone (most matches, and most of the time).
    .replace(/[ \t\u00a0]{2,}|[\t\u00a0]/g, ' ')
    .replace(/ *\n[\s]*/g, '\n')
    .trim();
}

const PANEL_OPEN = '<aside class="c-example';

/**
 * A generated API page's HTML with its examples column (the last example panels) as plain code:
 * the request example once, not in six highlighted translations (docs/api-reference.md,
 * "Retrieval"). Cut where the panels begin, found from the end; the highlighted markup is not read.
 */
function withPlainExamples(html: string, panels: readonly ApiExamplePanel[] | undefined): string {
  if (!panels || panels.length === 0) return html;
  let start = html.length;
  for (let i = 0; i < panels.length; i++) {
    start = html.lastIndexOf(PANEL_OPEN, start - 1);
    if (start === -1) return html;
  }
  const end = html.lastIndexOf('</aside>');
  if (end < start) return html;
  let plain = '';
  for (const panel of panels) {
    plain += `<p>${escapeHtml(panel.label)}</p>`;
    // Line ends as the page's code block has them (renderer/openapi/render.ts).
    for (const b of panel.blocks) plain += `<p>${escapeHtml(b.title)}</p><pre>${escapeHtml(b.code.replace(/\r\n?/g, '\n'))}</pre>`;
  }
  return html.slice(0, start) + plain + html.slice(end + '</aside>'.length);
}

function chunks(body: string): string[] {
  if (body.length <= MAX_SECTION_CHARS) return [body];
  const out: string[] = [];
  let rest = body;
  while (rest.length > MAX_SECTION_CHARS) {
    // At a line or word boundary when one is near; a wall of text is cut where it has to be.
    let cut = rest.lastIndexOf('\n', MAX_SECTION_CHARS);
    if (cut < MAX_SECTION_CHARS * 0.6) cut = rest.lastIndexOf(' ', MAX_SECTION_CHARS);
    if (cut < MAX_SECTION_CHARS * 0.6) cut = MAX_SECTION_CHARS;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) out.push(rest);
  return out;
}

/**
 * A page's rendered body split at its h2/h3 headings: the text before the first heading, then one
 * section per heading, linked to the heading's anchor. From the rendered HTML, so snippets,
 * variables and components are expanded as readers see them.
 */
export function pageSections(
  page: { path: string; url: string; title: string; language?: string; version?: string },
  html: string,
  apiExamples?: readonly ApiExamplePanel[],
): RetrievalSection[] {
  const body = withPlainExamples(html, apiExamples).replace(BLOCK_DROP_RE, ' ');
  const parts: { heading: string; anchor?: string; html: string }[] = [];
  let last = 0;
  let current: { heading: string; anchor?: string } = { heading: page.title };
  for (const m of body.matchAll(HEADING_RE)) {
    parts.push({ ...current, html: body.slice(last, m.index) });
    const anchor = ID_RE.exec(m[2] ?? '')?.[1];
    current = { heading: text(m[3] ?? '') || page.title, ...(anchor ? { anchor: decodeEntities(anchor) } : {}) };
    last = m.index + m[0].length;
  }
  parts.push({ ...current, html: body.slice(last) });
  const out: RetrievalSection[] = [];
  for (const part of parts) {
    const t = text(part.html);
    if (!t && part.heading === page.title) continue;
    for (const piece of chunks(t || part.heading)) {
      out.push({
        path: page.path,
        url: part.anchor ? `${page.url}#${part.anchor}` : page.url,
        title: page.title,
        heading: part.heading,
        text: piece,
        ...(page.language ? { language: page.language } : {}),
        ...(page.version ? { version: page.version } : {}),
      });
    }
  }
  return out;
}
