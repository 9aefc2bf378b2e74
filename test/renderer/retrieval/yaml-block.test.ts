import fs from 'node:fs';
import path from 'node:path';
import jsYaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { nestedYamlBlock, newYamlMemo, yamlBlock, type YamlMemo } from '../../../renderer/retrieval/yaml-block.js';
import { OLD_30, PETS_31, SWAGGER_20 } from '../openapi/fixtures.js';

const reference = (v: unknown, lineWidth = 80): string => jsYaml.dump(v, { noRefs: true, skipInvalid: true, lineWidth });

/** A small deterministic generator (mulberry32), so a failure names a seed that reproduces it. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Pieces that each steer js-yaml's choice of style somewhere: indicators, quotes, numbers, dates,
// booleans of YAML 1.1, line breaks, leading spaces, long words, non-ASCII, control characters.
const PIECES = [
  'a', 'Pet', 'id', 'op3', 'type', 'string', 'x-mint', '$ref', '/v1/pets/{id}', 'application/json', ' ', ' ', '  ', ':', ': ', ' #', '#', '-', '- ',
  '?', '*', '&', '!', '|', '>', "'", '"', '%', '@', '`', ',', '[', ']', '{', '}', '\n', '\n\n', '\t', '\\', '0', '12', '3.5', '1e3', '0x1F', '2024-01-02',
  'true', 'yes', 'No', 'null', '~', '.inf', 'NaN', 'é', '日本', '😀', '\u0007', '\u2028', 'word ', 'A sentence of several words, long enough to fold. ',
  'Supercalifragilisticexpialidocious-and-a-very-long-identifier-without-any-spaces-at-all',
];

function randomString(r: () => number): string {
  let s = '';
  const n = Math.floor(r() * r() * 12);
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(r() * PIECES.length)];
  return s;
}

function randomValue(r: () => number, depth: number): unknown {
  const k = r();
  if (depth > 4 || k < 0.35) return randomString(r);
  if (k < 0.45) return [0, 1, -1, 42, 3.25, -0, 1e21, 2 ** 53, 0.1, Number.NaN, Infinity][Math.floor(r() * 11)];
  if (k < 0.5) return [true, false, null][Math.floor(r() * 3)];
  if (k < 0.7) return Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
  const obj: Record<string, unknown> = {};
  for (let i = Math.floor(r() * 5); i > 0; i--) obj[randomString(r)] = randomValue(r, depth + 1);
  return obj;
}

/** Words joined by one to three spaces. */
const spaced = (r: () => number, words: string[]): string => words.map((w, i) => (i === 0 ? w : ' '.repeat(1 + Math.floor(r() * r() * 3)) + w)).join('');

/**
 * 3,000 values made by `valueOf`, each nested 0–12 mappings or sequences deep, written with one
 * memo and held to js-yaml's output at a width the Markdown uses; how many came out folded.
 */
function foldedAsJsYaml(memo: YamlMemo, valueOf: (r: () => number) => unknown): number {
  let folded = 0;
  for (let seed = 1; seed <= 3000; seed++) {
    const r = rng(seed);
    let value = valueOf(r);
    for (let depth = Math.floor(r() * 12); depth > 0; depth--) value = r() < 0.5 ? { [`k${depth % 3}`]: value } : [value];
    const doc = { top: value };
    const width = r() < 0.5 ? 80 : 76;
    const out = yamlBlock(doc, width, memo);
    if (out === undefined) continue;
    if (out.includes('>-')) folded++;
    expect(out, `seed ${seed}`).toBe(reference(doc, width));
  }
  return folded;
}

describe('yamlBlock: js-yaml\'s block YAML, written without its type tests', () => {
  it('writes the fixture specs byte for byte as js-yaml does, at every line width the Markdown uses', () => {
    for (const spec of [PETS_31, OLD_30, SWAGGER_20]) {
      for (const width of [80, 76]) {
        const out = yamlBlock(spec as Record<string, unknown>, width);
        expect(out).toBeDefined();
        expect(out).toBe(reference(spec, width));
      }
    }
  });

  it('writes 5,000 random documents as js-yaml does, or leaves them to it', () => {
    let written = 0;
    for (let seed = 1; seed <= 5000; seed++) {
      const r = rng(seed);
      const doc: Record<string, unknown> = {};
      for (let i = 1 + Math.floor(r() * 4); i > 0; i--) doc[randomString(r)] = randomValue(r, 0);
      const width = r() < 0.5 ? 80 : 76;
      const out = yamlBlock(doc, width);
      if (out === undefined) continue;
      written++;
      expect(out, `seed ${seed}`).toBe(reference(doc, width));
    }
    // Most of them: strings that start with a space (after line breaks, if any) are left to js-yaml,
    // and a sixth of these documents have one.
    expect(written).toBeGreaterThan(4000);
  });

  it('folds long plain sentences at every depth as js-yaml does, with one memo of strings for all documents', () => {
    // Words js-yaml writes plain, one to three spaces apart: past the fold width at their depth,
    // they are written folded (`>-`) without js-yaml; other strings come from the shared memo.
    const WORD = /^[A-Za-z][\w./-]*$/;
    const memo = newYamlMemo();
    const folded = foldedAsJsYaml(memo, (r) => {
      const words = Array.from({ length: 1 + Math.floor(r() * 40) }, () => {
        const w = Array.from({ length: 1 + Math.floor(r() * r() * 30) }, () => 'abcXYZ019_./-'[Math.floor(r() * 13)]).join('');
        return WORD.test(w) ? w : `w${w}`;
      });
      const sentence = spaced(r, words);
      return r() < 0.3 ? [sentence, randomString(r)] : { text: sentence, other: randomString(r) };
    });
    expect(folded).toBeGreaterThan(1500);
    expect(memo.strings.size).toBeGreaterThan(10);
  });

  it('folds long lines of any printable characters as js-yaml does, and leaves it those it does not count printable', () => {
    // Punctuation that makes a string unsafe as plain YAML (`: `, ` #`, quotes, indicators first),
    // non-ASCII and astral characters; now and then a tab, U+00A0, U+0085, U+2028, a byte-order
    // mark or a lone surrogate, which js-yaml writes double-quoted.
    const CHARS = [...'abcXYZ019_./-:#,\'"!?&*|>%@`[]{}()=+~^$é日😀'];
    const ODD = ['\t', '\u00a0', '\u0085', '\u2028', '\ufeff', '\ud800', '\udc00'];
    const folded = foldedAsJsYaml(newYamlMemo(), (r) => {
      let line = spaced(r, Array.from({ length: 1 + Math.floor(r() * 40) }, () => Array.from({ length: 1 + Math.floor(r() * r() * 20) }, () => CHARS[Math.floor(r() * CHARS.length)]).join('')));
      if (r() < 0.1) line = line.slice(0, Math.floor(r() * line.length)) + ODD[Math.floor(r() * ODD.length)] + line.slice(Math.floor(r() * line.length));
      if (r() < 0.05) line = ` ${line}`;
      return { text: line };
    });
    expect(folded).toBeGreaterThan(1500);
  });

  it('writes the 5,000 random documents the same with one memo of strings shared by all of them', () => {
    const memo = newYamlMemo();
    for (let seed = 1; seed <= 5000; seed++) {
      const r = rng(seed);
      const doc: Record<string, unknown> = {};
      for (let i = 1 + Math.floor(r() * 4); i > 0; i--) doc[randomString(r)] = randomValue(r, 0);
      const width = r() < 0.5 ? 80 : 76;
      const out = yamlBlock(doc, width, memo);
      if (out !== undefined) expect(out, `seed ${seed}`).toBe(reference(doc, width));
    }
  });

  it('writes a mapping nested two deep as it reads inside the whole document', () => {
    let written = 0;
    for (let seed = 1; seed <= 2000; seed++) {
      const r = rng(seed);
      const part: Record<string, unknown> = { [randomString(r) || 'Name']: randomValue(r, 0) };
      const out = nestedYamlBlock(part, 2);
      if (out === undefined) continue;
      written++;
      expect(`components:\n  schemas:\n${out}`, `seed ${seed}`).toBe(reference({ components: { schemas: part } }));
    }
    expect(written).toBeGreaterThan(1500);
    expect(nestedYamlBlock({ gone: undefined }, 2)).toBeUndefined();
  });

  it('reads back as the same data', () => {
    const r = rng(7);
    for (let i = 0; i < 200; i++) {
      const doc = { [randomString(r) || 'k']: randomValue(r, 0), list: [randomValue(r, 1), { a: randomString(r) }] };
      const out = yamlBlock(doc);
      if (out === undefined) continue;
      expect(parse(out)).toEqual(parse(reference(doc)));
    }
  });

  it('leaves to js-yaml what it does not write: values other than JSON data, block scalars that need an indentation indicator, keys past 1,024 characters', () => {
    expect(yamlBlock({ at: new Date(0) })).toBeUndefined();
    expect(yamlBlock({ fn: () => 1 })).toBeUndefined();
    expect(yamlBlock({ big: 1n } as Record<string, unknown>)).toBeUndefined();
    expect(yamlBlock({ text: '\n  indented after a line break' })).toBeUndefined();
    expect(yamlBlock({ ['k'.repeat(1100)]: 1 })).toBeUndefined();
    // Skipped as js-yaml skips them: undefined values of a mapping; an undefined item is null.
    expect(yamlBlock({ a: undefined, b: [undefined, 1] })).toBe(reference({ a: undefined, b: [undefined, 1] }));
  });

  it('keeps the keys it has written in the memo it is given, for the next part of the same document', () => {
    const memo = newYamlMemo();
    yamlBlock({ '200': { description: 'OK' }, 'x y': 1 }, 80, memo);
    expect(memo.keys.get('200')).toBe("'200'");
    expect(memo.keys.get('description')).toBe('description');
  });

  it('writes the sweeps\' fixture specs and the hosted platform\'s published OpenAPI documents as js-yaml does', async () => {
    const modules = await Promise.all([import('../openapi/sweep-fixtures.js'), import('../openapi/sweep2-fixtures.js'), import('../openapi/sweep3-fixtures.js'), import('../openapi/sweep4-fixtures.js')]);
    const docs: [string, unknown][] = modules.flatMap((m) => Object.entries(m)).filter(([, v]) => typeof v === 'object' && v !== null);
    const hosted = path.resolve(import.meta.dirname, '../../fixtures/hosted-openapi');
    for (const f of fs.readdirSync(hosted).filter((n) => n.endsWith('.json'))) docs.push([f, JSON.parse(fs.readFileSync(path.join(hosted, f), 'utf8'))]);
    expect(docs.length).toBeGreaterThan(25);
    let written = 0;
    for (const [name, doc] of docs) {
      const out = yamlBlock(doc as Record<string, unknown>);
      if (out === undefined) continue;
      written++;
      expect(out, name).toBe(reference(doc));
    }
    expect(written).toBe(docs.length);
  });
});
