/**
 * API pages: RequestExample / ResponseExample blocks (rendered by the page stage as
 * `<aside class="c-example …">`) move out of the body into a sticky side panel, where the hosted
 * platform shows them. The body loses nothing else; on narrow screens CSS stacks the panel
 * under the content.
 */
const OPEN = '<aside class="c-example';

export function splitExamples(html: string): { body: string; examples: string } {
  if (!html.includes(OPEN)) return { body: html, examples: '' };
  let body = '';
  let examples = '';
  let from = 0;
  for (let start = html.indexOf(OPEN, from); start !== -1; start = html.indexOf(OPEN, from)) {
    const end = matchingClose(html, start);
    if (end === -1) break; // unbalanced: leave the rest in place rather than guess
    body += html.slice(from, start);
    examples += html.slice(start, end);
    from = end;
  }
  body += html.slice(from);
  return { body, examples };
}

/** Index just past the `</aside>` closing the element that opens at `start`, or -1. */
function matchingClose(html: string, start: number): number {
  const tag = /<(\/?)aside\b[^>]*>/gi;
  tag.lastIndex = start;
  let depth = 0;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    depth += m[1] ? -1 : 1;
    if (depth === 0) return m.index + m[0].length;
  }
  return -1;
}
