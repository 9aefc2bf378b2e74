/**
 * renderMarkdown's shortcut for plain words with inline code (renderer/page/code-span-text.ts):
 * every text it takes is one marked renders exactly so, checked on random texts of the characters
 * that matter (backticks, spaces, line breaks, markdown and HTML characters); texts marked would
 * read as more are left to marked.
 */
import { Marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { codeSpanText } from '../../../renderer/page/code-span-text.js';

const marked = new Marked({ gfm: true, async: false });

function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

describe('code-span shortcut', () => {
  it('renders every accepted text exactly as marked does, in blocks and inline', () => {
    const alphabet = 'aZé0 ,.;:\'"()?/%+=-_*[]!#&<>$@~|\\wh:/tp'.split('');
    const next = random(7);
    const pick = (chars: string[]): string => chars[Math.floor(next() * chars.length)] as string;
    let accepted = 0;
    let paragraphs = 0;
    const run = (max: number): string => Array.from({ length: 1 + Math.floor(next() * max) }, () => pick(alphabet)).join('');
    for (let n = 0; n < 30_000; n++) {
      // Paragraphs of words, spaces and code spans (of any characters, a stray backtick now and
      // then), apart by one blank line mostly, sometimes by one or two line breaks.
      const paras = Array.from({ length: 1 + Math.floor(next() * 3) }, () => {
        let p = '';
        for (let i = 0, k = 1 + Math.floor(next() * 6); i < k; i++) {
          const r = next();
          p += r < 0.35 ? `\`${run(5)}\`` : r < 0.6 ? ' ' : r < 0.63 ? '`' : run(4);
        }
        return p;
      });
      const seps = () => (next() < 0.85 ? '\n\n' : next() < 0.5 ? '\n' : '\n\n\n');
      const s = (next() < 0.3 ? '\n' : '') + paras.reduce((a, b) => a + seps() + b) + (next() < 0.3 ? '\n' : '');
      const block = codeSpanText(s, 'block');
      if (block !== undefined) {
        accepted++;
        if (block.split('<p>').length > 2) paragraphs++;
        expect(block, JSON.stringify(s)).toBe(marked.parse(s));
      }
      const inline = codeSpanText(s, 'inline');
      if (inline !== undefined) expect(inline, JSON.stringify(s)).toBe(marked.parseInline(s));
    }
    expect(accepted).toBeGreaterThan(300);
    expect(paragraphs).toBeGreaterThan(20);
  });

  it('takes the texts of generated API pages and leaves the rest to marked', () => {
    const taken = [
      'Available options: `usd`, `eur`, `jpy`',
      '\nAmount of the order in cents.\n\nRequired range: `0 <= x <= 100000000`\n',
      'Bearer authentication header of the form `Bearer <token>`, where `<token>` is your auth token.',
      '`read-only`',
      "Refers back to `Customer` (a circular reference); its fields are shown above.",
    ];
    for (const s of taken) {
      const html = codeSpanText(s, 'block');
      expect(html, s).toBeDefined();
      expect(html).toBe(marked.parse(s));
    }
    const left = ['no code at all', 'a `b', '`` double ``', 'a ` spaced ` b', '- `item`', '1. `first`', '# `Title`', 'see `x` at https://example.com', 'a `b` *c*', 'x `y`  ', ' `lead`', 'a `b`\nc', 'a `b`\n\n\nc', 'mail `x` me@example.com', 'cost `x` $5', 'a `b` & c', 'a `b` <i>'];
    for (const s of left) expect(codeSpanText(s, 'block'), JSON.stringify(s)).toBeUndefined();
  });
});
