/**
 * The opening tags most pages are made of (`<Card title="…" icon="book" href="/x">`,
 * `<CardGroup cols={2}>`, `<Note>`), read without acorn. Each acorn read builds a parser (its
 * options copied, four keyword regexes compiled) to tokenise a few attributes: on the bench's
 * pages that was 50–70 µs of a page's CPU, more on component-heavy real pages.
 *
 * Only a strict subset of JSX is taken here, and on that subset the result is exactly what the
 * acorn path (js-grammar.ts `readOpeningTag` + jsx-tree.ts `jsxAttributes`) gives; anything else
 * (a comment, a spread, a namespaced or member name, a non-literal expression, an unusual space)
 * returns undefined and goes to acorn. A test compares the two on generated tags.
 *
 * The subset: `<Name` (letters, digits, `_`), then attributes each after whitespace: a name
 * (ASCII letters, digits, `_`, `-`, not starting with `-` or a digit), alone or `=` followed by a
 * quoted string (any characters but its quote) or by `{number}` (decimal, no leading zero), `{true}`, `{false}`, `{null}`
 * with optional spaces inside the braces; then `>` or `/>`, whitespace allowed before either.
 */
import type { Attr } from './tree.js';

export interface SimpleTag {
  name: string;
  attrs: Attr[];
  selfClosing: boolean;
  /** Offset just past the closing `>`. */
  end: number;
}

const TAG_NAME_RE = /[A-Za-z][A-Za-z0-9_]*/y;
const ATTR_NAME_RE = /[A-Za-z_][A-Za-z0-9_-]*/y;
// No leading zero: `{01}` is a legacy octal, a syntax error in a module.
const LITERAL_RE = /[ \t]*(?:(?:0|[1-9]\d*)(?:\.\d+)?|true|false|null)[ \t]*\}/y;

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** `<` at `at`; undefined when the tag is not in the subset (the caller then asks acorn). */
export function readSimpleOpeningTag(src: string, at: number): SimpleTag | undefined {
  TAG_NAME_RE.lastIndex = at + 1;
  const nameMatch = TAG_NAME_RE.exec(src);
  if (!nameMatch) return undefined;
  const name = nameMatch[0];
  let k = at + 1 + name.length;
  const attrs: Attr[] = [];
  for (;;) {
    const before = k;
    while (isSpace(src.charCodeAt(k))) k++;
    const c = src.charCodeAt(k);
    if (c === 62 /* > */) return { name, attrs, selfClosing: false, end: k + 1 };
    if (c === 47 /* / */) return src.charCodeAt(k + 1) === 62 ? { name, attrs, selfClosing: true, end: k + 2 } : undefined;
    // An attribute must follow whitespace: `a="x"b` is left to acorn.
    if (k === before) return undefined;
    ATTR_NAME_RE.lastIndex = k;
    const attrMatch = ATTR_NAME_RE.exec(src);
    if (!attrMatch) return undefined;
    const attrName = attrMatch[0];
    k += attrName.length;
    if (src.charCodeAt(k) !== 61 /* = */) {
      // A bare attribute: what follows must be whitespace or the end of the tag.
      const next = src.charCodeAt(k);
      if (!isSpace(next) && next !== 62 && next !== 47) return undefined;
      attrs.push({ name: attrName, value: { kind: 'bool' } });
      continue;
    }
    k++;
    const q = src.charCodeAt(k);
    if (q === 34 /* " */ || q === 39 /* ' */) {
      const close = src.indexOf(q === 34 ? '"' : "'", k + 1);
      if (close === -1) return undefined;
      attrs.push({ name: attrName, value: { kind: 'string', value: src.slice(k + 1, close) } });
      k = close + 1;
    } else if (q === 123 /* { */) {
      LITERAL_RE.lastIndex = k + 1;
      const literal = LITERAL_RE.exec(src);
      if (!literal) return undefined;
      const close = k + literal[0].length;
      attrs.push({ name: attrName, value: { kind: 'expr', code: src.slice(k + 1, close) } });
      k = close + 1;
    } else {
      return undefined;
    }
    const next = src.charCodeAt(k);
    if (!isSpace(next) && next !== 62 && next !== 47) return undefined;
  }
}
