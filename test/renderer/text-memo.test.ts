import { describe, expect, it } from 'vitest';
import { textMemo } from '../../renderer/text-memo.js';
import { parsePageMdx } from '../../renderer/page/parse.js';
import { RenderError } from '../../renderer/types.js';

describe('per-worker text memos', () => {
  it('keep entries until their characters pass the budget, then drop the oldest first', () => {
    const memo = textMemo<number>(10);
    memo.set('aaaa', 1);
    memo.set('bbbb', 2);
    expect(memo.get('aaaa')).toBe(1);
    memo.set('cccc', 3); // 12 characters held: the oldest goes
    expect(memo.get('aaaa')).toBeUndefined();
    expect(memo.get('bbbb')).toBe(2);
    expect(memo.get('cccc')).toBe(3);
    // An entry larger than the whole budget is returned but not kept.
    expect(memo.set('x'.repeat(11), 4)).toBe(4);
    expect(memo.get('x'.repeat(11))).toBeUndefined();
  });

  it('weigh values too when told to', () => {
    const memo = textMemo<string>(10, (k, v) => k.length + v.length);
    memo.set('a', '12345');
    memo.set('b', '12345');
    expect(memo.get('a')).toBeUndefined();
    expect(memo.get('b')).toBe('12345');
  });

  it('give a repeated page text the same tree under its own file name, and parse errors every time', () => {
    const text = '# Title\n\n<Note>\n  Words\n</Note>\n';
    const first = parsePageMdx('v1/page.mdx', text, 3);
    const second = parsePageMdx('v2/page.mdx', text, 3);
    expect(second.file).toBe('v2/page.mdx');
    expect(second.nodes).toEqual(first.nodes);
    // Another first line is another tree (line numbers of warnings and errors differ).
    expect(parsePageMdx('v3/page.mdx', text, 7).nodes).not.toEqual(first.nodes);
    const broken = '<Note>\n  never closed\n';
    for (const file of ['a.mdx', 'b.mdx']) {
      expect(() => parsePageMdx(file, broken, 1)).toThrow(RenderError);
      try {
        parsePageMdx(file, broken, 1);
      } catch (err) {
        expect((err as RenderError).file).toBe(file);
      }
    }
  });
});
