/**
 * decodeEntities (renderer/page/html.ts) decodes exactly the references marked and the renderer's
 * own escaping produce, and leaves everything else as written: checked against the plain regex
 * definition on fixed cases and on random strings built from the characters that matter.
 */
import { describe, expect, it } from 'vitest';
import { decodeEntities, escapeHtml, htmlToText } from '../../../renderer/page/html.js';

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };
function reference(value: string): string {
  return value.replace(/&(?:#(\d+)|#x([0-9a-fA-F]+)|(amp|lt|gt|quot|apos|nbsp|#39));/g, (whole, dec: string | undefined, hex: string | undefined, named: string | undefined) => {
    const cp = dec ? Number.parseInt(dec, 10) : hex ? Number.parseInt(hex, 16) : undefined;
    if (cp !== undefined) return Number.isInteger(cp) && cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
    return (named && NAMED[named]) ?? whole;
  });
}

describe('decodeEntities', () => {
  it('decodes the known references once, and leaves the rest as written', () => {
    expect(decodeEntities('a &lt;b&gt; &amp;lt; &quot;q&quot; &#39;s&#39; &#x41;&#66; &nbsp;x')).toBe('a <b> &lt; "q" \'s\' AB  x');
    expect(decodeEntities('&copy; &#X41; &#x; &#; &#0; &#1114112; & alone; &amp')).toBe('&copy; &#X41; &#x; &#; &#0; &#1114112; & alone; &amp');
    expect(decodeEntities('no references')).toBe('no references');
    expect(decodeEntities('&a&lt;&&gt;;')).toBe('&a<&>;');
    // Near misses of the five references escapeHtml writes, read in place without a lookup.
    expect(decodeEntities('&lg; &gtt; &at; &amq; &#38; &#3; &quo; &quott; &QUOT;')).toBe('&lg; &gtt; &at; &amq; & \u0003 &quo; &quott; &QUOT;');
  });

  it('agrees with the regex definition on random strings', () => {
    const alphabet = ['&', ';', '#', 'x', 'X', '1', '3', '9', '4', 'a', 'm', 'p', 'l', 't', 'g', 'q', 'u', 'o', 'nbsp', 'quot', 'amp', ' ', '0', 'F'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 5000; n++) {
      const s = Array.from({ length: 1 + Math.floor(next() * 30) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
      expect(decodeEntities(s), JSON.stringify(s)).toBe(reference(s));
    }
  });

  // A scan that looked for the next `;` again from every `&` would take minutes here (quadratic).
  it('leaves 200,000 `&` before a single `;` as they are', () => {
    const s = `${'&'.repeat(200_000)};`;
    expect(decodeEntities(s)).toBe(s);
  });
});

describe('htmlToText', () => {
  const fold = (s: string): string => s.replace(/\s{2,}|[^\S ]/g, ' ').trim();
  it('makes a run of tags one space, keeps a space at either edge, and reads a `<` with no `>` as text', () => {
    expect(htmlToText('<div><p>One <b>two</b></p></div><p>three &amp; four</p>')).toBe(' One  two three & four ');
    expect(htmlToText('plain &lt;b&gt;')).toBe('plain <b>');
    expect(htmlToText('a<br>b < c')).toBe('a b < c');
  });

  it('reads the same words as replacing every tag with a space, on random fragments', () => {
    const pieces = ['<p>', '</p>', '<b class="x">', '</b>', '<', '>', 'word', ' ', '\n', '&amp;', '&lt;', '&#32;', 'x'];
    let seed = 5;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 3000; n++) {
      const html = Array.from({ length: 1 + Math.floor(next() * 20) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      expect(fold(htmlToText(html)), JSON.stringify(html)).toBe(fold(decodeEntities(html.replace(/<[^>]*>/g, ' '))));
    }
  });
});

describe('escapeHtml', () => {
  const REFS: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
  it('writes the five characters as references, wherever they are, and returns other text as it is', () => {
    expect(escapeHtml(`<a href="x">Tom's & Jerry's</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;Tom&#39;s &amp; Jerry&#39;s&lt;/a&gt;');
    expect(escapeHtml('plain')).toBe('plain');
    expect(escapeHtml('&')).toBe('&amp;');
    expect(escapeHtml('a>')).toBe('a&gt;');
  });

  it('agrees with a replace of each character on random strings', () => {
    const alphabet = ['&', '<', '>', '"', "'", 'a', ' ', 'é', '\n'];
    let seed = 3;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 3000; n++) {
      const s = Array.from({ length: Math.floor(next() * 16) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
      expect(escapeHtml(s), JSON.stringify(s)).toBe(s.replace(/[&<>"']/g, (c) => REFS[c] as string));
    }
  });
});
