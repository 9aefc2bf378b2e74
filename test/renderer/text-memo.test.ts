import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ownCopy, textMemo } from '../../renderer/text-memo.js';

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

  it('copy strings exactly, lone surrogates and all', () => {
    for (const text of ['', 'plain', 'é ✓ \u{1F600}', 'lone \uD800 surrogate \uDFFF', '"quotes" and \\ back\nslash']) expect(ownCopy(text)).toBe(text);
  });

  it('keep nothing of the text a copied slice or concatenation came from', () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    const kept: string[] = [];
    for (let i = 0; i < 100; i++) {
      // A 1 MB page source, a sliced view of it, and a concatenation of its slices.
      const page = `${i}`.padEnd(1_000_000, 'abcdefgh');
      let joined = '';
      for (let k = 0; k < 20; k++) joined += page.slice(k * 100, k * 100 + 30);
      kept.push(ownCopy(page.slice(5_000, 5_300)), ownCopy(joined));
    }
    gc();
    // Views would hold the 100 sources (about 100 MB); the copies hold about 0.2 MB.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(20_000_000);
    expect(kept[0]).toBe('0'.padEnd(1_000_000, 'abcdefgh').slice(5_000, 5_300));
  });
});
