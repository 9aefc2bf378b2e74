import hljs from 'highlight.js';
import { describe, expect, it } from 'vitest';
import { highlightCanonicalJson } from '../../../renderer/page/json-highlight.js';

const hl = (code: string): string => hljs.highlight(code, { language: 'json', ignoreIllegals: true }).value;

describe('canonical JSON highlighting', () => {
  it('writes exactly what highlight.js writes, for every kind of value and awkward strings', () => {
    const values: unknown[] = [
      { a: 'x<&"y\'', b: [1, -2.5, 0, true, null, false], c: {}, d: [], e: { f: '\\u00e9 é: {"nested": [1]}', '': 'empty key' } },
      [{ id: '3c90c3cc', n: 123 }, [], [[]], 'plain', 42],
      { 'key with "quotes"': 'v', 'colon:key': ':', 'brace{': '}', 'line\nbreak': 'tab\t' },
    ];
    for (const v of values) {
      const code = JSON.stringify(v, null, 2);
      expect(highlightCanonicalJson(code)).toBe(hl(code));
    }
  });

  it('leaves other text to highlight.js', () => {
    expect(highlightCanonicalJson('{"a": 1}')).toBeUndefined();
    expect(highlightCanonicalJson('{\n    "a": 1\n}')).toBeUndefined();
    expect(highlightCanonicalJson(JSON.stringify({ big: 1e21 }, null, 2))).toBeUndefined();
    expect(highlightCanonicalJson('// comment\n{}')).toBeUndefined();
    expect(highlightCanonicalJson('"just a string"')).toBeUndefined();
  });
});
