import { escapeHtml } from '../page/html.js';
import { headingParts } from './html-text.js';
import type { ApiExamplePanel } from '../types.js';
import type { RetrievalSection } from './types.js';

/**
 * Characters kept per section. A section longer than this (a 200-parameter API reference) is
 * split into several entries under the same heading, so nothing of the page is lost to retrieval
 * and no single passage crowds the model's context.
 */
export const MAX_SECTION_CHARS = 2_400;

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
  const out: RetrievalSection[] = [];
  for (const part of headingParts(withPlainExamples(html, apiExamples), page.title)) {
    if (!part.text && part.heading === page.title) continue;
    for (const piece of chunks(part.text || part.heading)) {
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
