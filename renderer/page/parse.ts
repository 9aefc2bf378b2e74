/**
 * The MDX reader: markdown text with JSX elements, `{…}` expressions and top-level
 * `import`/`export` blocks. This pass finds where each construct starts (code fences and inline
 * code are opaque); the constructs themselves are read by a real ECMAScript + JSX parser
 * (js-grammar.ts), so what MDX accepts in a tag or an expression is accepted here. It builds a
 * tree (see tree.ts) in one linear pass; markdown itself is left to marked.
 */
import { RenderError } from '../types.js';
import { lineLocator } from './esm.js';
import { fenceOpenAt } from './fence-open.js';
import { HTML_TAGS, VOID_TAGS } from './html-tags.js';
import { parseModule, readBracedExpression, readOpeningTag, type JsSyntaxError } from './js-grammar.js';
import { readSimpleOpeningTag } from './simple-tag.js';
import { jsxAttributes, RAW_CONTENT } from './jsx-tree.js';
import { matchMath } from './math-syntax.js';
import type { Program } from 'acorn';
import type { Attr, ElementNode, ParsedMdx } from './tree.js';

const TAG_NAME_RE = /[A-Za-z][\w]*(?:[.:-][\w]+)*/y;
const ATTR_NAME_RE = /[A-Za-z_$:][\w$:.-]*/y;
const UNQUOTED_VALUE_RE = /[^\s>"'`=<]+/y;
const ESM_START_RE = /(?:import\s*(?:[\w$*{]|["'])|export\s+(?:const|let|var|function|default|async|class)\b|export\s*\{)/y;
const IMPORT_STATEMENT_RE = /import\s+(?:["'][^"'\n]+["']|[\w$\s,{}*]+?\s+from\s*["'][^"'\n]+["'])/y;
const BLANK_LINE_RE = /\n[ \t]*(?:\n|$)/g;
const CUSTOM_ID_RE = /\{#[\w-]+\}/y;
const MAX_EXPRESSION_LENGTH = 20_000;
/**
 * Far deeper than any real page nests. Rendering cost grows with the square of the depth (each
 * level wraps its children's HTML), so a page nested 1,000 deep would exhaust a worker's heap;
 * past this limit the page fails with its line instead.
 */
export const MAX_ELEMENT_DEPTH = 100;

interface Frame {
  el: ElementNode;
  startsLine: boolean;
  contentStart: number;
}

/** `esm`: recognise top-level import/export blocks (pages and .mdx snippets). */
export function parseMdx(file: string, src: string, firstLine: number, opts: { esm: boolean }): ParsedMdx {
  return new Parser(file, src, firstLine, opts.esm).run();
}

class Parser {
  private readonly root: ElementNode = { kind: 'element', name: '#root', attrs: [], children: [], line: 1, block: true, multiline: true };
  private readonly stack: Frame[] = [];
  private textStart = 0;
  private scanBudget: number;
  private locateLine: ((offset: number) => number) | undefined;

  constructor(
    private readonly file: string,
    private readonly src: string,
    private readonly firstLine: number,
    private readonly esm: boolean,
  ) {
    this.scanBudget = 4 * src.length + 200_000;
  }

  run(): ParsedMdx {
    const src = this.src;
    const n = src.length;
    let i = 0;
    let atLineStart = true;
    while (i < n) {
      if (atLineStart) {
        atLineStart = false;
        if (this.esm && this.stack.length === 0) {
          const esm = this.esmAt(i);
          if (esm) {
            const { end, program } = esm;
            this.flush(i);
            this.top().children.push({ kind: 'esm', code: src.slice(i, end), line: this.lineOf(i), program });
            i = end;
            this.textStart = i;
            atLineStart = true;
            continue;
          }
        }
        const fence = fenceOpenAt(src, i);
        if (fence) {
          i = fenceEnd(src, fence.end, fence.fence);
          atLineStart = true;
          continue;
        }
      }
      const c = src.charCodeAt(i);
      if (c === 10) {
        i++;
        atLineStart = true;
      } else if (c === 92 /* \ */) {
        i += 2;
      } else if (c === 96 /* ` */) {
        i = codeSpanEnd(src, i);
      } else if (c === 60 /* < */) {
        i = this.tag(i);
      } else if (c === 123 /* { */) {
        i = this.expression(i);
      } else if (c === 36 /* $ */) {
        i = this.math(i);
      } else {
        i++;
      }
    }
    const open = this.stack[this.stack.length - 1];
    if (open) {
      throw new RenderError(`Unclosed <${open.el.name}>: no matching </${open.el.name}> before the end of the file`, {
        file: this.file,
        line: open.el.line,
      });
    }
    this.flush(n);
    return { file: this.file, nodes: this.root.children };
  }

  /**
   * Runs a forward scan (closing brace, quote, `-->`) and charges what it cost to a per-page
   * budget. Once a page has spent several times its own length on scans that found nothing, further
   * scans are skipped (the `{` or `<` is then plain text), so parsing stays linear on any input.
   */
  private lookahead(from: number, scan: () => number): number {
    if (this.scanBudget <= 0) return -1;
    const end = scan();
    this.scanBudget -= end === -1 ? Math.min(this.src.length - from, MAX_EXPRESSION_LENGTH) : 0;
    return end;
  }

  private top(): ElementNode {
    return this.stack[this.stack.length - 1]?.el ?? this.root;
  }

  private flush(end: number): void {
    if (end > this.textStart) {
      this.top().children.push({ kind: 'text', value: this.src.slice(this.textStart, end) });
    }
    this.textStart = end;
  }

  lineOf(offset: number): number {
    this.locateLine ??= lineLocator(this.src, this.firstLine);
    return this.locateLine(offset);
  }

  /**
   * MDX ESM: a line starting with import/export begins a block that runs to a blank line; when
   * the parser reaches the end of that text still wanting more (a multi-line object with blank
   * lines in it), the block runs on to the next blank line. Any other syntax error is the file's.
   */
  private esmAt(i: number): { end: number; program: Program } | undefined {
    const src = this.src;
    ESM_START_RE.lastIndex = i;
    if (!ESM_START_RE.test(src)) return undefined;
    if (src.startsWith('import', i)) {
      IMPORT_STATEMENT_RE.lastIndex = i;
      if (!IMPORT_STATEMENT_RE.test(src)) return undefined;
    }
    let from = i;
    for (;;) {
      BLANK_LINE_RE.lastIndex = from;
      const blank = BLANK_LINE_RE.exec(src);
      const end = blank ? blank.index + 1 : src.length;
      const code = src.slice(i, end);
      const parsed = parseModule(code);
      if ('program' in parsed) return { end, program: parsed.program };
      if (!blank || parsed.error.offset < code.trimEnd().length) throw this.syntaxError(parsed.error, i);
      from = end;
    }
  }

  /** A parser error at `base + error.offset`, as `file:line:column: message`. */
  syntaxError(error: JsSyntaxError, base: number): RenderError {
    const at = base + error.offset;
    const lineStart = this.src.lastIndexOf('\n', at - 1) + 1;
    return new RenderError(`Could not parse: ${error.message}`, { file: this.file, line: this.lineOf(at), column: at - lineStart + 1 });
  }

  private tag(i: number): number {
    const src = this.src;
    if (src.startsWith('<!--', i)) {
      const end = this.lookahead(i, () => boundedIndexOf(src, '-->', i + 4));
      if (end === -1) return i + 1;
      this.flush(i);
      this.textStart = end + 3;
      return end + 3;
    }
    if (src[i + 1] === '/') return this.closingTag(i);
    return this.openingTag(i);
  }

  /** The tag name at k: '' for a fragment (`<>`, `</>`), undefined when no name starts there. */
  private tagNameAt(k: number): string | undefined {
    if (this.src[k] === '>') return '';
    TAG_NAME_RE.lastIndex = k;
    return TAG_NAME_RE.exec(this.src)?.[0];
  }

  private closingTag(i: number): number {
    const src = this.src;
    const name = this.tagNameAt(i + 2);
    if (name === undefined) return i + 1;
    let k = i + 2 + name.length;
    while (src[k] === ' ' || src[k] === '\t' || src[k] === '\n') k++;
    if (src[k] !== '>') return i + 1;
    if (isLowercase(name) && !HTML_TAGS.has(name.toLowerCase())) return i + 1;
    const end = k + 1;
    const depth = this.findOpen(name);
    if (depth === -1) {
      // A stray closing HTML tag (`</p>` after markdown) is dropped like a browser would.
      if (isLowercase(name)) {
        this.flush(i);
        this.textStart = end;
        return end;
      }
      throw new RenderError(`Unexpected closing tag </${name}>: no <${name}> is open here`, {
        file: this.file,
        line: this.lineOf(i),
      });
    }
    const frame = this.stack[this.stack.length - 1];
    if (!frame) return end;
    if (depth !== this.stack.length - 1) {
      throw new RenderError(`Unclosed <${frame.el.name}>: found </${name}> before </${frame.el.name}>`, {
        file: this.file,
        line: frame.el.line,
      });
    }
    this.flush(i);
    this.stack.pop();
    frame.el.multiline = src.slice(frame.contentStart, i).includes('\n');
    frame.el.block = frame.startsLine && restOfLineBlank(src, end);
    this.textStart = end;
    return end;
  }

  private findOpen(name: string): number {
    for (let d = this.stack.length - 1; d >= 0; d--) if (this.stack[d]?.el.name === name) return d;
    return -1;
  }

  /**
   * A JSX opening tag read by the JS grammar. HTML written in markdown (`<a href=x>`, unquoted
   * values) is not JSX: a lowercase tag acorn refuses is read by the lenient HTML-ish reader
   * instead. A component tag both readers take for a tag but acorn refuses is a syntax error.
   */
  private openingTag(i: number): number {
    const name = this.tagNameAt(i + 1);
    if (name === undefined || (isLowercase(name) && !HTML_TAGS.has(name.toLowerCase()))) return i + 1;
    if (this.scanBudget > 0) {
      const simple = readSimpleOpeningTag(this.src, i);
      if (simple) return this.openElement(i, simple.name, simple.attrs, simple.selfClosing, simple.end);
      const read = readOpeningTag(this.src, i);
      if ('tag' in read) {
        return this.openElement(i, read.tag.name, jsxAttributes(read.tag.attributes, this.src, i), read.tag.selfClosing, read.tag.end);
      }
      this.scanBudget -= Math.min(read.error.offset - i, MAX_EXPRESSION_LENGTH);
      const lenient = this.lenientOpeningTag(i, name);
      if (lenient === undefined) return i + 1;
      if (!isLowercase(name)) throw this.syntaxError(read.error, 0);
      return this.openElement(i, name, lenient.attrs, lenient.selfClosing, lenient.end);
    }
    const lenient = this.lenientOpeningTag(i, name);
    return lenient === undefined ? i + 1 : this.openElement(i, name, lenient.attrs, lenient.selfClosing, lenient.end);
  }

  private lenientOpeningTag(i: number, name: string): { attrs: Attr[]; selfClosing: boolean; end: number } | undefined {
    const src = this.src;
    let k = i + 1 + name.length;
    const attrs: Attr[] = [];
    let selfClosing = false;
    for (;;) {
      k = skipSpace(src, k);
      const c = src[k];
      if (c === undefined) return undefined;
      if (c === '>') {
        k++;
        break;
      }
      if (c === '/' && src[k + 1] === '>') {
        selfClosing = true;
        k += 2;
        break;
      }
      if (c === '{') {
        // `{...spread}` or a `{/* comment */}` between attributes: skipped, never evaluated.
        const end = this.lookahead(k, () => exprEnd(src, k));
        if (end === -1) return undefined;
        k = end + 1;
        continue;
      }
      ATTR_NAME_RE.lastIndex = k;
      const m = ATTR_NAME_RE.exec(src);
      if (!m) return undefined;
      const attrName = m[0];
      k = skipSpace(src, k + attrName.length);
      if (src[k] !== '=') {
        attrs.push({ name: attrName, value: { kind: 'bool' } });
        continue;
      }
      k = skipSpace(src, k + 1);
      const q = src[k];
      if (q === '"' || q === "'") {
        const end = this.lookahead(k, () => boundedIndexOf(src, q, k + 1));
        if (end === -1) return undefined;
        attrs.push({ name: attrName, value: { kind: 'string', value: src.slice(k + 1, end) } });
        k = end + 1;
      } else if (q === '{') {
        const end = this.lookahead(k, () => exprEnd(src, k));
        if (end === -1) return undefined;
        attrs.push({ name: attrName, value: { kind: 'expr', code: src.slice(k + 1, end) } });
        k = end + 1;
      } else {
        UNQUOTED_VALUE_RE.lastIndex = k;
        const v = UNQUOTED_VALUE_RE.exec(src);
        if (!v) return undefined;
        attrs.push({ name: attrName, value: { kind: 'string', value: v[0] } });
        k += v[0].length;
      }
    }
    return { attrs, selfClosing, end: k };
  }

  private openElement(i: number, name: string, attrs: Attr[], selfClosing: boolean, k: number): number {
    const src = this.src;
    this.flush(i);
    const startsLine = lineStartsAt(src, i);
    const el: ElementNode = { kind: 'element', name, attrs, children: [], line: this.lineOf(i), block: false, multiline: false };
    this.top().children.push(el);
    // `<Link>` is a component, `<link>` an HTML void element: JSX names are case-sensitive.
    if (selfClosing || (isLowercase(name) && VOID_TAGS.has(name))) {
      el.block = startsLine && restOfLineBlank(src, k);
      this.textStart = k;
      return k;
    }
    if (RAW_CONTENT.has(name)) {
      const close = src.indexOf(`</${name}>`, k);
      if (close === -1) {
        throw new RenderError(`Unclosed <${name}>: no matching </${name}> before the end of the file`, {
          file: this.file,
          line: el.line,
        });
      }
      el.raw = src.slice(k, close);
      const end = close + name.length + 3;
      el.multiline = el.raw.includes('\n');
      el.block = startsLine && restOfLineBlank(src, end);
      this.textStart = end;
      return end;
    }
    if (this.stack.length >= MAX_ELEMENT_DEPTH) {
      throw new RenderError(`<${name}> is nested more than ${MAX_ELEMENT_DEPTH} elements deep; the page is not rendered`, {
        file: this.file,
        line: el.line,
      });
    }
    this.stack.push({ el, startsLine, contentStart: k });
    this.textStart = k;
    return k;
  }

  /** `$…$` / `$$…$$`: TeX is opaque like code (`$e^{i\pi}$` holds braces that are not expressions). */
  private math(i: number): number {
    const span = matchMath(this.src, i);
    if (!span) return i + 1;
    this.flush(i);
    const block = span.display && lineStartsAt(this.src, i) && restOfLineBlank(this.src, span.end);
    this.top().children.push({ kind: 'math', tex: span.tex, display: span.display, block, line: this.lineOf(i) });
    this.textStart = span.end;
    return span.end;
  }

  /**
   * A `{…}` expression, read by the JS grammar. Text whose braces never balance stays text (as
   * before MDX); balanced braces holding something that is not JavaScript are a syntax error.
   */
  private expression(i: number): number {
    const src = this.src;
    // `## Title {#custom-id}` is heading syntax, not an expression: left to the heading renderer.
    CUSTOM_ID_RE.lastIndex = i;
    const custom = CUSTOM_ID_RE.exec(src);
    if (custom) return i + custom[0].length;
    if (this.scanBudget <= 0) return i + 1;
    const read = readBracedExpression(src, i);
    if ('error' in read) {
      this.scanBudget -= Math.min(read.error.offset - i, MAX_EXPRESSION_LENGTH);
      if (this.lookahead(i, () => exprEnd(src, i)) === -1) return i + 1;
      throw this.syntaxError(read.error, 0);
    }
    this.flush(i);
    this.top().children.push({ kind: 'expr', code: src.slice(i + 1, read.end - 1), line: this.lineOf(i) });
    this.textStart = read.end;
    return read.end;
  }
}

/**
 * indexOf that gives up after MAX_EXPRESSION_LENGTH characters: an unterminated attribute string
 * or comment then costs a bounded scan, so a page of them cannot make parsing quadratic.
 */
function boundedIndexOf(src: string, needle: string, from: number): number {
  const limit = Math.min(src.length, from + MAX_EXPRESSION_LENGTH + needle.length);
  const at = src.slice(from, limit).indexOf(needle);
  return at === -1 ? -1 : from + at;
}

function isLowercase(name: string): boolean {
  const c = name.charCodeAt(0);
  return c >= 97 && c <= 122;
}

function skipSpace(src: string, k: number): number {
  for (;;) {
    const c = src.charCodeAt(k);
    if (c === 32 || c === 9 || c === 10 || c === 13) k++;
    else return k;
  }
}

function lineStartsAt(src: string, i: number): boolean {
  for (let k = i - 1; k >= 0; k--) {
    const c = src.charCodeAt(k);
    if (c === 10) return true;
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

function restOfLineBlank(src: string, k: number): boolean {
  for (; k < src.length; k++) {
    const c = src.charCodeAt(k);
    if (c === 10) return true;
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}

/** After an opening fence (``` or ~~~), the offset just past its closing line, or the end. */
export function fenceEnd(src: string, from: number, fence: string): number {
  const ch = fence[0] ?? '`';
  let lineEnd = src.indexOf('\n', from);
  while (lineEnd !== -1) {
    const start = lineEnd + 1;
    let k = start;
    while (src[k] === ' ' || src[k] === '\t') k++;
    let run = 0;
    while (src[k + run] === ch) run++;
    lineEnd = src.indexOf('\n', start);
    if (run >= fence.length) {
      const rest = src.slice(k + run, lineEnd === -1 ? src.length : lineEnd);
      if (rest.trim() === '') return lineEnd === -1 ? src.length : lineEnd;
    }
  }
  return src.length;
}

/** Past a code span, or just past its opening backticks when it never closes in the paragraph. */
function codeSpanEnd(src: string, i: number): number {
  let run = 0;
  while (src[i + run] === '`') run++;
  let k = i + run;
  for (;;) {
    const next = src.indexOf('`', k);
    if (next === -1) return i + run;
    if (hasBlankLine(src, k, next)) return i + run;
    let len = 0;
    while (src[next + len] === '`') len++;
    if (len === run) return next + len;
    k = next + len;
  }
}

/** Whether src[from, to) holds a blank line (a newline, optional spaces or tabs, a newline), without slicing. */
function hasBlankLine(src: string, from: number, to: number): boolean {
  for (let nl = src.indexOf('\n', from); nl !== -1 && nl < to; nl = src.indexOf('\n', nl + 1)) {
    let k = nl + 1;
    while (k < to && (src.charCodeAt(k) === 32 || src.charCodeAt(k) === 9)) k++;
    if (k < to && src.charCodeAt(k) === 10) return true;
  }
  return false;
}

/** The offset of the `}` matching the `{` at i, skipping strings and comments; -1 if unbalanced. */
export function exprEnd(src: string, i: number): number {
  let depth = 0;
  // Bounded, so a page full of unmatched `{` stays linear-ish instead of rescanning to the end.
  const n = Math.min(src.length, i + MAX_EXPRESSION_LENGTH);
  for (let k = i; k < n; k++) {
    const c = src[k];
    if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return k;
    } else if (c === '"' || c === "'" || c === '`') {
      // An unmatched quote is taken as text (an apostrophe in JSX text inside the expression).
      const end = stringEnd(src, k, c);
      if (end !== -1) k = end;
    } else if (c === '/' && src[k + 1] === '*') {
      const end = src.indexOf('*/', k + 2);
      if (end === -1) return -1;
      k = end + 1;
    }
  }
  return -1;
}

function stringEnd(src: string, k: number, quote: string): number {
  for (let j = k + 1; j < src.length; j++) {
    const c = src[j];
    if (c === '\\') j++;
    else if (c === quote) return j;
  }
  return -1;
}
