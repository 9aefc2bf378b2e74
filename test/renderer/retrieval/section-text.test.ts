/**
 * A section's text is its HTML read from tag to tag: a tag that ends a block (`</p>`, `</li>`,
 * `<br>`…) is a line break, any other a space, references are decoded, and whitespace is folded.
 * The reader keeps one separator for a run of tags; checked against that plain definition on
 * fixed cases and on random fragments built from the pieces that matter.
 */
import { describe, expect, it } from 'vitest';
import { decodeEntities } from '../../../renderer/page/html.js';
import { pageSections } from '../../../renderer/retrieval/sections.js';

const LINE_END = /^<(?:\/(?:p|li|pre|tr|div|h[1-6]|blockquote|table|ul|ol)|br\s*\/?)>$/i;
/** The definition: each tag (from a `<` to the next `>`) gives its own separator, then whitespace is folded. */
function reference(html: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const lt = html.indexOf('<', at);
    const gt = lt === -1 ? -1 : html.indexOf('>', lt + 1);
    if (gt === -1) break;
    out += html.slice(at, lt) + (LINE_END.test(html.slice(lt, gt + 1)) ? '\n' : ' ');
    at = gt + 1;
  }
  return decodeEntities(out + html.slice(at))
    .replace(/[ \t\u00a0]{2,}|[\t\u00a0]/g, ' ')
    .replace(/ *\n[\s]*/g, '\n')
    .trim();
}

const page = { path: 'p', url: '/p', title: 'P' };
const textOf = (html: string): string => pageSections(page, html).map((s) => s.text).join('');

describe('section text', () => {
  it('makes block ends line breaks and other tags spaces, one per run', () => {
    expect(textOf('<div><p>One <b>two</b></p><p>three</p></div><ul><li>a</li><li>b<br/>c</li></ul>')).toBe('One two\nthree\na\nb\nc');
    expect(textOf('<span>x</span><span>y</span>&amp;<code>z</code> &lt;tag&gt;')).toBe('x y & z <tag>');
    // A `<` opens a tag up to the next `>`; one with no `>` after it is text.
    expect(textOf('a < b <i>c</i> d < e')).toBe('a c d < e');
  });

  it('agrees with the plain definition on random fragments', () => {
    const pieces = ['<p>', '</p>', '<li>', '</li>', '<br>', '<BR />', '</DIV>', '<span class="x">', '</span>', '</p >', '<', '>', 'word', ' ', '  ', '\n', '\t', '\u00a0', '&amp;', '&nbsp;', '&#10;', '&lt;', 'x'];
    let seed = 11;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 3000; n++) {
      const html = Array.from({ length: 1 + Math.floor(next() * 24) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      const expected = reference(html);
      expect(textOf(html), JSON.stringify(html)).toBe(expected);
    }
  });
});

/**
 * The definition of a page's sections, as regex passes: skipped elements replaced by a space,
 * then h2/h3 elements as section headings, each part's text as above.
 */
function referenceSections(html: string): { heading: string; anchor?: string; text: string }[] {
  const body = html.replace(/<(script|style|svg|template|noscript)\b[^>]*>[\s\S]*?<\/\1>/gi, ' ');
  const parts: { heading: string; anchor?: string; html: string }[] = [];
  let last = 0;
  let current: { heading: string; anchor?: string } = { heading: page.title };
  for (const m of body.matchAll(/<h([23])\b([^>]*)>([\s\S]*?)<\/h\1>/gi)) {
    parts.push({ ...current, html: body.slice(last, m.index) });
    const anchor = /\bid="([^"]*)"/.exec(m[2] ?? '')?.[1];
    current = { heading: reference(m[3] ?? '') || page.title, ...(anchor ? { anchor: decodeEntities(anchor) } : {}) };
    last = m.index + m[0].length;
  }
  parts.push({ ...current, html: body.slice(last) });
  // A heading with no text under it is its own text; text before the first heading needs some.
  return parts
    .map((p) => ({ heading: p.heading, ...(p.anchor ? { anchor: p.anchor } : {}), text: reference(p.html) }))
    .filter((p) => p.text || p.heading !== page.title)
    .map((p) => ({ ...p, text: p.text || p.heading }));
}

describe('sections', () => {
  it('starts a section at each closed h2 or h3 and passes over script, style, svg, template and noscript', () => {
    const html = '<p>Intro</p><h2 id="a&amp;b">First <svg><title>icon</title></svg>one</h2><p>x</p><script>var s = "<h2>no</h2>";</script><H3>Second</H3><p>y</p><h2>never closed<p>z</p>';
    expect(pageSections(page, html).map((s) => [s.heading, s.url, s.text])).toEqual([
      ['P', '/p', 'Intro'],
      ['First one', '/p#a&b', 'x'],
      ['Second', '/p', 'y\nnever closed z'],
    ]);
  });

  it('agrees with the regex definition on random fragments', () => {
    const pieces = ['<h2 id="a">', '<h2>', '</h2>', '<H3 class="t">', '</h3>', '<h4>', '</h4>', '<h2x>', '<svg viewBox="0 0 1 1">', '</svg>', '<SVG>', '<svg-icon>', '<script>', '</SCRIPT>', '<template>', '</template>', '<noscript>', '</noscript>', '<style>', '</style>', '<p>', '</p>', '<br>', '<b>', '</b>', 'word', ' ', '\n', '&amp;', '&lt;'];
    // No bare `<` in text: rendered HTML escapes it, and the regexes would read a tag inside such a run.
    let seed = 17;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 4000; n++) {
      const html = Array.from({ length: 1 + Math.floor(next() * 30) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      const got = pageSections(page, html).map((s) => ({ heading: s.heading, ...(s.url !== page.url ? { anchor: s.url.slice(page.url.length + 1) } : {}), text: s.text }));
      expect(got, JSON.stringify(html)).toEqual(referenceSections(html));
    }
  });
});
