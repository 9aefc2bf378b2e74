/**
 * The ECMAScript + JSX grammar: acorn with acorn-jsx, the parser MDX itself (and so Mintlify's
 * build) uses. The MDX reader (parse.ts) finds where JSX tags, `{…}` expressions and
 * import/export blocks start; this module reads them, so comments, template literals, arrow
 * functions, spread, optional chaining and JSX inside attributes parse as they do there.
 * Nothing here runs code: the results are syntax trees read as data.
 */
import { Parser, tokTypes as tt, type Options, type Program } from 'acorn';
import jsx from 'acorn-jsx';

/** A syntax node as acorn and acorn-jsx produce it (JSX nodes are not in acorn's own types). */
export interface JsNode {
  type: string;
  start: number;
  end: number;
  loc?: { start: { line: number; column: number } } | null;
  [key: string]: unknown;
}

/** Where and why acorn refused the input, with `offset` into the string that was parsed. */
export interface JsSyntaxError {
  message: string;
  offset: number;
}

interface TokenType {
  label: string;
}

/** The acorn internals used to read one construct at a time (all public in acorn, untyped). */
interface ParserInternals {
  type: TokenType;
  start: number;
  end: number;
  nextToken(): void;
  next(): void;
  eat(type: TokenType): boolean;
  expect(type: TokenType): void;
  unexpected(pos?: number): never;
  startNode(): JsNode;
  finishNode(node: JsNode, type: string): JsNode;
  parse(): Program;
  parseExpression(): JsNode;
  parseMaybeAssign(): JsNode;
  jsx_parseElementName(): JsNode | '';
  jsx_parseAttribute(): JsNode;
}

const Base = Parser.extend(jsx()) as unknown as new (options: Options, input: string) => ParserInternals;

/**
 * acorn-jsx reads `{…}` between attributes only as a spread; MDX and Mintlify also accept a
 * comment there (`<Card {/* note *\/} title="…">`), read here as an empty attribute.
 */
class MdxJsParser extends Base {
  override jsx_parseAttribute(): JsNode {
    if (this.type !== tt.braceL) return super.jsx_parseAttribute();
    const node = this.startNode();
    this.next();
    if (this.type === tt.braceR) {
      this.next();
      return this.finishNode(node, 'JSXEmptyAttribute');
    }
    this.expect(tt.ellipsis);
    node['argument'] = this.parseMaybeAssign();
    this.expect(tt.braceR);
    return this.finishNode(node, 'JSXSpreadAttribute');
  }
}

const OPTIONS: Options = { ecmaVersion: 'latest', sourceType: 'module', allowAwaitOutsideFunction: true, allowHashBang: true };
const WITH_LOCATIONS: Options = { ...OPTIONS, locations: true };

function syntaxError(err: unknown, base: number): JsSyntaxError {
  if (err instanceof SyntaxError && typeof (err as SyntaxError & { pos?: unknown }).pos === 'number') {
    const pos = (err as SyntaxError & { pos: number }).pos;
    // acorn appends "(line:column)" relative to what it was given; callers locate it in the file.
    return { message: err.message.replace(/\s*\(\d+:\d+\)$/, ''), offset: base + pos };
  }
  throw err;
}

/**
 * `slice(at)` is O(1) in V8 (a sliced string); acorn given a start offset would instead count the
 * lines before it on every call, quadratic on a page of many tags.
 */
function parserAt(src: string, at: number, options: Options = OPTIONS): MdxJsParser {
  return new MdxJsParser(options, at === 0 ? src : src.slice(at));
}

export interface OpeningTag {
  /** `Card`, `Tree.Folder`, `svg:path`; '' for a fragment. */
  name: string;
  attributes: JsNode[];
  selfClosing: boolean;
  /** Offset in the source just past the closing `>`; attribute offsets are from `at`. */
  end: number;
}

/** Reads the JSX opening tag starting with `<` at `at`, stopping at its `>` (children are MDX, not JSX). */
export function readOpeningTag(src: string, at: number): { tag: OpeningTag } | { error: JsSyntaxError } {
  const p = parserAt(src, at);
  try {
    p.nextToken();
    if (p.type.label !== 'jsxTagStart') p.unexpected();
    p.next();
    const nameNode = p.jsx_parseElementName();
    const attributes: JsNode[] = [];
    while (p.type !== tt.slash && p.type.label !== 'jsxTagEnd') attributes.push(p.jsx_parseAttribute());
    const selfClosing = p.type === tt.slash;
    if (selfClosing) p.next();
    if (p.type.label !== 'jsxTagEnd') p.unexpected();
    return { tag: { name: nameNode === '' ? '' : jsxName(nameNode), attributes, selfClosing, end: at + p.end } };
  } catch (err) {
    return { error: syntaxError(err, at) };
  }
}

/**
 * Reads the `{…}` expression starting at `at`. `expression` is undefined for an empty one or one
 * holding only comments (`{/* note *\/}`). `end` is just past the closing brace.
 */
export function readBracedExpression(src: string, at: number): { expression: JsNode | undefined; end: number } | { error: JsSyntaxError } {
  const p = parserAt(src, at);
  try {
    p.nextToken();
    if (p.type !== tt.braceL) p.unexpected();
    p.next();
    if (p.type === tt.braceR) return { expression: undefined, end: at + p.end };
    const expression = p.parseExpression();
    if (p.type !== tt.braceR) p.unexpected();
    return { expression, end: at + p.end };
  } catch (err) {
    return { error: syntaxError(err, at) };
  }
}

/** A whole module (an import/export block, a .jsx snippet), with line numbers from 1. */
export function parseModule(code: string): { program: Program } | { error: JsSyntaxError } {
  try {
    return { program: parserAt(code, 0, WITH_LOCATIONS).parse() };
  } catch (err) {
    return { error: syntaxError(err, 0) };
  }
}

/** A JSX expression on its own (an attribute value such as `<svg …>…</svg>`). */
export function parseJsxExpression(code: string): { expression: JsNode } | { error: JsSyntaxError } {
  const p = parserAt(code, 0, WITH_LOCATIONS);
  try {
    p.nextToken();
    const expression = p.parseExpression();
    if (p.type !== tt.eof) p.unexpected();
    return { expression };
  } catch (err) {
    return { error: syntaxError(err, 0) };
  }
}

/** `Card`, `Tree.Folder`, `svg:path` from a JSX name node. */
export function jsxName(node: JsNode): string {
  switch (node.type) {
    case 'JSXIdentifier':
      return String(node['name']);
    case 'JSXNamespacedName':
      return `${jsxName(node['namespace'] as JsNode)}:${jsxName(node['name'] as JsNode)}`;
    case 'JSXMemberExpression':
      return `${jsxName(node['object'] as JsNode)}.${jsxName(node['property'] as JsNode)}`;
    default:
      return '';
  }
}

/** 1-based line and column of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
