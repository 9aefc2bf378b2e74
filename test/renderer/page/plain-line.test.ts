/**
 * renderMarkdown's shortcut for a plain line (renderer/page/markdown.ts): every line it takes is one
 * marked renders as that escaped text (in a paragraph, for a block), checked on random lines of
 * the characters that matter; lines marked would treat otherwise are left to marked.
 */
import { Marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../../renderer/page/html.js';
import { plainLine } from '../../../renderer/page/markdown.js';

const marked = new Marked({ gfm: true, async: false });

describe('plain-line shortcut', () => {
  it('renders every accepted line exactly as marked does', () => {
    const alphabet = 'aZé0 ,.;:\'"()?/%+=-_*`[]!#&<>$@~|\\\nwh:/tp'.split('');
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let accepted = 0;
    for (let n = 0; n < 20_000; n++) {
      const s = Array.from({ length: 1 + Math.floor(next() * 24) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
      if (!plainLine(s)) continue;
      accepted++;
      expect(`<p>${escapeHtml(s)}</p>\n`, JSON.stringify(s)).toBe(marked.parse(s));
      expect(escapeHtml(s), JSON.stringify(s)).toBe(marked.parseInline(s));
    }
    expect(accepted).toBeGreaterThan(200);
  });

  it('leaves to marked what marked would read as more than text', () => {
    for (const s of ['- item', '1. first', '# Title', '> quote', 'see https://example.com', 'www.example.com', 'a *b*', 'a_b_', 'x & y', 'cost $5', 'a  ', ' lead', '', 'two\nlines', 'a <b>', 'mail me@example.com']) {
      expect(plainLine(s), s).toBe(false);
    }
    expect(plainLine('Returns the customer (or null) for the given ID: 42% of cases, a/b = c.')).toBe(true);
  });
});
