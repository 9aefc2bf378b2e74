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
