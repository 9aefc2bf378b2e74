/**
 * A small tokenizer for MDX as Mintlify pages use it: markdown text with JSX elements, `{…}`
 * expressions and top-level `import`/`export` blocks. Code fences and inline code are opaque.
 * It builds a tree (see tree.ts) in one linear pass; markdown itself is left to marked.
 */
import { RenderError } from '../types.js';
import { HTML_TAGS, VOID_TAGS } from './html-tags.js';
import { matchMath } from './math-syntax.js';
import type { Attr, ElementNode, ParsedMdx } from './tree.js';

/** Elements whose content is kept as raw text (TeX, diagrams, scripts), not parsed as MDX. */
const RAW_CONTENT = new Set(['Latex', 'Mermaid', 'script', 'style']);

const FENCE_OPEN_RE = /[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(`{3,}|~{3,})/y;
const TAG_NAME_RE = /[A-Za-z][\w]*(?:[.:-][\w]+)*/y;
const ATTR_NAME_RE = /[A-Za-z_$:][\w$:.-]*/y;
const UNQUOTED_VALUE_RE = /[^\s>"'`=<]+/y;
const ESM_START_RE = /(?:import\s*(?:[\w$*{]|["'])|export\s+(?:const|let|var|function|default|async|class)\b|export\s*\{)/y;
const IMPORT_STATEMENT_RE = /import\s+(?:["'][^"'\n]+["']|[\w$\s,{}*]+?\s+from\s*["'][^"'\n]+["'])/y;
const BLANK_LINE_RE = /\n[ \t]*(?:\n|$)/g;
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

/**
 * `esm`: recognise top-level import/export blocks (pages and .mdx snippets).
 * `jsx`: the source is a JSX expression (an arrow component's body), not MDX: text follows JSX
 * whitespace rules and every element is inline, as React would render it.
 */
export function parseMdx(file: string, src: string, firstLine: number, opts: { esm: boolean; jsx?: boolean }): ParsedMdx {
  return new Parser(file, src, firstLine, opts.esm, opts.jsx === true).run();
}

class Parser {
  private readonly root: ElementNode = { kind: 'element', name: '#root', attrs: [], children: [], line: 1, block: true, multiline: true };
  private readonly stack: Frame[] = [];
  private textStart = 0;
  private scanBudget: number;
  private lineStarts: number[] | undefined;

  constructor(
    private readonly file: string,
    private readonly src: string,
    private readonly firstLine: number,
    private readonly esm: boolean,
    private readonly jsx: boolean,
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
          const end = this.esmEnd(i);
          if (end !== -1) {
            this.flush(i);
            this.top().children.push({ kind: 'esm', code: src.slice(i, end), line: this.lineOf(i) });
            i = end;
            this.textStart = i;
            atLineStart = true;
            continue;
          }
        }
        FENCE_OPEN_RE.lastIndex = i;
        const fence = FENCE_OPEN_RE.exec(src);
        if (fence?.[1]) {
          i = fenceEnd(src, i + fence[0].length, fence[1]);
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
      const raw = this.src.slice(this.textStart, end);
      const value = this.jsx ? collapseJsxText(raw) : raw;
      if (value !== '') this.top().children.push({ kind: 'text', value });
    }
    this.textStart = end;
  }

  lineOf(offset: number): number {
    if (!this.lineStarts) {
      const starts = [0];
      for (let i = this.src.indexOf('\n'); i !== -1; i = this.src.indexOf('\n', i + 1)) starts.push(i + 1);
      this.lineStarts = starts;
    }
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return this.firstLine + lo;
  }

  /** MDX ESM: from a line starting with import/export to a blank line where brackets balance. */
  private esmEnd(i: number): number {
    const src = this.src;
    ESM_START_RE.lastIndex = i;
    if (!ESM_START_RE.test(src)) return -1;
    if (src.startsWith('import', i)) {
      IMPORT_STATEMENT_RE.lastIndex = i;
      if (!IMPORT_STATEMENT_RE.test(src)) return -1;
    }
    let depth = 0;
    let from = i;
    for (;;) {
      BLANK_LINE_RE.lastIndex = from;
      const blank = BLANK_LINE_RE.exec(src);
      const end = blank ? blank.index + 1 : src.length;
      for (let k = from; k < end; k++) {
        const c = src[k];
        if (c === '(' || c === '[' || c === '{') depth++;
        else if (c === ')' || c === ']' || c === '}') depth--;
      }
      if (depth <= 0 || !blank) return end;
      from = end;
    }
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
    frame.el.multiline = !this.jsx && src.slice(frame.contentStart, i).includes('\n');
    frame.el.block = !this.jsx && frame.startsLine && restOfLineBlank(src, end);
    this.textStart = end;
    return end;
  }

  private findOpen(name: string): number {
    for (let d = this.stack.length - 1; d >= 0; d--) if (this.stack[d]?.el.name === name) return d;
    return -1;
  }

  private openingTag(i: number): number {
    const src = this.src;
    const name = this.tagNameAt(i + 1);
    if (name === undefined || (isLowercase(name) && !HTML_TAGS.has(name.toLowerCase()))) return i + 1;
    let k = i + 1 + name.length;
    const attrs: Attr[] = [];
    let selfClosing = false;
    for (;;) {
      k = skipSpace(src, k);
      const c = src[k];
      if (c === undefined) return i + 1;
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
        if (end === -1) return i + 1;
        k = end + 1;
        continue;
      }
      ATTR_NAME_RE.lastIndex = k;
      const m = ATTR_NAME_RE.exec(src);
      if (!m) return i + 1;
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
        if (end === -1) return i + 1;
        attrs.push({ name: attrName, value: { kind: 'string', value: src.slice(k + 1, end) } });
        k = end + 1;
      } else if (q === '{') {
        const end = this.lookahead(k, () => exprEnd(src, k));
        if (end === -1) return i + 1;
        attrs.push({ name: attrName, value: { kind: 'expr', code: src.slice(k + 1, end) } });
        k = end + 1;
      } else {
        UNQUOTED_VALUE_RE.lastIndex = k;
        const v = UNQUOTED_VALUE_RE.exec(src);
        if (!v) return i + 1;
        attrs.push({ name: attrName, value: { kind: 'string', value: v[0] } });
        k += v[0].length;
      }
    }
    this.flush(i);
    const startsLine = lineStartsAt(src, i);
    const el: ElementNode = { kind: 'element', name, attrs, children: [], line: this.lineOf(i), block: false, multiline: false };
    this.top().children.push(el);
    if (selfClosing || VOID_TAGS.has(name.toLowerCase())) {
      el.block = !this.jsx && startsLine && restOfLineBlank(src, k);
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
      el.block = !this.jsx && startsLine && restOfLineBlank(src, end);
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

  private expression(i: number): number {
    const src = this.src;
    const end = this.lookahead(i, () => exprEnd(src, i));
    if (end === -1) return i + 1;
    const code = src.slice(i + 1, end);
    // `## Title {#custom-id}` is heading syntax, not an expression: left to the heading renderer.
    if (/^#[\w-]+$/.test(code)) return end + 1;
    this.flush(i);
    this.top().children.push({ kind: 'expr', code, line: this.lineOf(i) });
    this.textStart = end + 1;
    return end + 1;
  }
}

/** JSX text: whitespace-only lines vanish, lines are trimmed where they meet a newline and joined by a space. */
function collapseJsxText(raw: string): string {
  if (!raw.includes('\n')) return raw;
  const lines = raw.split('\n');
  const kept: string[] = [];
  lines.forEach((line, idx) => {
    let l = line.replace(/\t/g, ' ');
    if (idx > 0) l = l.trimStart();
    if (idx < lines.length - 1) l = l.trimEnd();
    if (l !== '') kept.push(l);
  });
  return kept.join(' ');
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
