/**
 * The MDX reader's shortcut for plain opening tags (renderer/page/simple-tag.ts): every tag it
 * reads gives exactly what acorn's path gives (name, attributes, self-closing, end), checked on
 * generated tags mixing what the shortcut takes with what only acorn may decide (comments,
 * spreads, namespaced and member names, expressions, unusual spaces, broken input).
 */
import { describe, expect, it } from 'vitest';
import { readOpeningTag } from '../../../renderer/page/js-grammar.js';
import { jsxAttributes } from '../../../renderer/page/jsx-tree.js';
import { readSimpleOpeningTag } from '../../../renderer/page/simple-tag.js';
import { render } from './helpers.js';

function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

const NAMES = ['Card', 'CardGroup', 'Note', 'img', 'br', 'Tab2', 'Tree.Folder', 'svg:path', 'my-el', 'A_b'];
const SPACES = [' ', ' ', ' ', '  ', '\n', '\t', '\r\n', '', '\u00a0', ' /* c */ ', ' // c\n'];
const ATTRS = ['title', 'icon', 'href', 'data-x', 'aria-label', 'cols', 'x_y', '_u', '$a', 'xlink:href', '-bad', '1bad', 'class', 'a-'];
const VALUES = [
  '', '', '="a b"', '="a b"', "='it\"s'", '="x > y"', '="multi\nline"', '="&amp; &lt;"', '=""', '={2}', '={ 2 }', '={2.5}', '={0}', '={0.5}',
  '={01}', '={1_000}', '={1e3}', '={-1}', '={true}', '={false}', '={null}', '={trueish}', '={x}', '={"s"}', '={\n2\n}', '="unterminated', '=',
  ' = "x"', '={2', '={{a: 1}}', "='{'", '="}"',
];
const ENDS = ['>', '>', '/>', ' />', ' / >', '', '>rest', ' >', '\n>', '/'];

describe('simple opening tags', () => {
  it('reads every tag it takes exactly as acorn does, and takes the common ones', () => {
    const next = random(11);
    const pick = (list: string[]): string => list[Math.floor(next() * list.length)] as string;
    let taken = 0;
    let agreedRefusals = 0;
    const total = 40_000;
    for (let n = 0; n < total; n++) {
      let tag = `<${pick(NAMES)}`;
      for (let i = 0, k = Math.floor(next() * 4); i < k; i++) {
        const r = next();
        tag += pick(SPACES) + (r < 0.05 ? '{...props}' : r < 0.08 ? '{/* note */}' : pick(ATTRS) + pick(VALUES));
      }
      tag += pick(ENDS);
      const prefix = next() < 0.5 ? '' : 'Some text\n\n';
      const src = `${prefix}${tag}\n\nafter`;
      const at = prefix.length;
      const simple = readSimpleOpeningTag(src, at);
      const acorn = readOpeningTag(src, at);
      if (simple === undefined) {
        if ('error' in acorn) agreedRefusals++;
        continue;
      }
      taken++;
      expect('tag' in acorn, `acorn refuses ${JSON.stringify(tag)}`).toBe(true);
      if (!('tag' in acorn)) continue;
      expect(simple, JSON.stringify(tag)).toEqual({
        name: acorn.tag.name,
        attrs: jsxAttributes(acorn.tag.attributes, src, at),
        selfClosing: acorn.tag.selfClosing,
        end: acorn.tag.end,
      });
    }
    // Both sides of the check are exercised: many tags taken, many left to acorn.
    expect(taken).toBeGreaterThan(total * 0.1);
    expect(total - taken).toBeGreaterThan(total * 0.3);
    expect(agreedRefusals).toBeGreaterThan(0);
  });

  it('reads the tags of a typical page: names, strings, numbers, booleans, self-closing', () => {
    const src = '<Card title="Anchor > schema" icon=\'book\' href="/x" horizontal>';
    expect(readSimpleOpeningTag(src, 0)).toEqual({
      name: 'Card',
      attrs: [
        { name: 'title', value: { kind: 'string', value: 'Anchor > schema' } },
        { name: 'icon', value: { kind: 'string', value: 'book' } },
        { name: 'href', value: { kind: 'string', value: '/x' } },
        { name: 'horizontal', value: { kind: 'bool' } },
      ],
      selfClosing: false,
      end: src.length,
    });
    expect(readSimpleOpeningTag('x <CardGroup cols={ 2 }/>', 2)).toEqual({ name: 'CardGroup', attrs: [{ name: 'cols', value: { kind: 'expr', code: ' 2 ' } }], selfClosing: true, end: 25 });
    // Left to acorn: a comment, a spread, an expression, a member name.
    for (const tag of ['<Card {/* c */} title="x">', '<Card {...p}>', '<Card title={name}>', '<Tree.Folder name="a">']) expect(readSimpleOpeningTag(tag, 0)).toBeUndefined();
  });

  it('renders a page whose tags both readers took: strings, entities, numbers, expressions', () => {
    const page = render('<CardGroup cols={2}>\n  <Card title="A &amp; B" icon="book" href="/guides/intro">\n    Body text.\n  </Card>\n  <Card title={"Expr"} href="/guides/setup" />\n</CardGroup>\n');
    expect(page.html).toContain('href="/guides/intro/"');
    expect(page.html).toContain('A &amp; B');
    expect(page.html).toContain('Expr');
    expect(page.html).toContain('style="--cols:2"');
  });
});
