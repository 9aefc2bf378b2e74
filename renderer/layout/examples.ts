/**
 * Side-panel content: RequestExample / ResponseExample blocks and `<Panel>` (rendered by the page
 * stage as `<aside class="c-example …">` / `<aside class="c-panel">`) move out of the body into a
 * sticky column beside it, where the hosted platform shows them. The body loses nothing else; on
 * narrow screens CSS stacks the column under the content.
 */
const OPENERS = ['<aside class="c-example', '<aside class="c-panel'];

function nextOpen(html: string, from: number): number {
  let best = -1;
  for (const open of OPENERS) {
    const at = html.indexOf(open, from);
    if (at !== -1 && (best === -1 || at < best)) best = at;
  }
  return best;
}

export function splitExamples(html: string): { body: string; examples: string } {
  if (!html.includes('<aside class="c-')) return { body: html, examples: '' };
  let body = '';
  let examples = '';
  let from = 0;
  for (let start = nextOpen(html, from); start !== -1; start = nextOpen(html, from)) {
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
