/**
 * oneByte (renderer/page/one-byte.ts): the rendered page's strings stored one byte a character
 * when they can be, characters unchanged. V8's serializer tells the two storages apart.
 */
import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { oneByte } from '../../../renderer/page/one-byte.js';

/** Whether V8 stores the string two bytes a character (its serializer's tag for such a string is 'c'). */
const twoByte = (s: string): boolean => v8.serialize(s)[2] === 0x63;

/**
 * `text` as V8 keeps it after a placeholder was cut out of it: two bytes a character. Only for
 * text of 13 characters or more: V8 copies a shorter substring, and V8 12 (Node 22) copies it one
 * byte a character when it can.
 */
const widened = (text: string): string => `\uE000${text}`.slice(1);

describe('oneByte', () => {
  it('stores ASCII and Latin-1 text cut from a two-byte string one byte a character, unchanged', () => {
    for (const text of ['<p>plain ASCII</p>', 'café, naïve, ½ & ÿ', '\u0000\u00ff'.repeat(8)]) {
      const wide = widened(text);
      expect(twoByte(wide)).toBe(true);
      const out = oneByte(wide);
      expect(out).toBe(text);
      expect(twoByte(out)).toBe(false);
    }
  });

  it('returns text with a character past U+00FF as it is', () => {
    for (const text of ['arrow → here', 'emoji 🎉', 'Ā', '\uE001 placeholder']) {
      expect(oneByte(widened(text))).toBe(text);
    }
    expect(oneByte('')).toBe('');
  });

  it('keeps every character of random text', () => {
    const alphabet = ['a', 'Z', ' ', '\n', '<', '&', 'é', 'ÿ', '\u0080', '€', '→', '😀', '\uD800', '\uE002'];
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 2_000; i++) {
      let text = '';
      const length = next() % 40;
      for (let k = 0; k < length; k++) text += alphabet[next() % alphabet.length];
      expect(oneByte(widened(text))).toBe(text);
    }
  });
});
