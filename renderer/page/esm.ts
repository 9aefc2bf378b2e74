/**
 * Reading MDX `import`/`export` blocks as data: which names come from which file, and what each
 * `export const` holds (a literal, a simple arrow-function component, or opaque code).
 */
import { NOT_LITERAL, parseLiteral, type Literal } from './literal.js';

export interface ImportDecl {
  source: string;
  line: number;
  defaultName?: string;
  namespace?: string;
  named: { imported: string; local: string }[];
}

export type ExportValue =
  | { kind: 'literal'; value: Literal }
  | { kind: 'arrow'; params: Map<string, Literal>; propsName?: string; body: string; bodyLine: number }
  | { kind: 'opaque'; reason: string };

export interface ExportDecl {
  name: string;
  line: number;
  value: ExportValue;
}

export interface EsmBlock {
  imports: ImportDecl[];
  exports: ExportDecl[];
}

const STATEMENT_START_RE = /^(?:import|export)\b/gm;
const IMPORT_RE = /^import\s+(?:(["'])([^"'\n]+)\1|([\s\S]+?)\s*from\s*(["'])([^"'\n]+)\4)\s*;?\s*$/;
const EXPORT_CONST_RE = /^export\s+(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*([\s\S]*?)\s*;?\s*$/;
const EXPORT_FUNCTION_RE = /^export\s+(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)?/;
const ARROW_HEAD_RE = /^(?:async\s+)?(?:\(\s*([\s\S]*?)\s*\)|([A-Za-z_$][\w$]*))\s*=>\s*/;
const IDENT_RE = /^[A-Za-z_$][\w$]*$/;

/** `code` is one ESM block from the parser; `line` is the file line of its first character. */
export function parseEsmBlock(code: string, line: number): EsmBlock {
  const block: EsmBlock = { imports: [], exports: [] };
  const starts: number[] = [];
  STATEMENT_START_RE.lastIndex = 0;
  for (let m = STATEMENT_START_RE.exec(code); m; m = STATEMENT_START_RE.exec(code)) starts.push(m.index);
  for (let s = 0; s < starts.length; s++) {
    const from = starts[s] ?? 0;
    const text = code.slice(from, starts[s + 1] ?? code.length).trim();
    const stmtLine = line + countNewlines(code, 0, from);
    if (text.startsWith('import')) {
      const decl = parseImport(text, stmtLine);
      if (decl) block.imports.push(decl);
    } else {
      const decl = parseExport(text, stmtLine);
      if (decl) block.exports.push(decl);
    }
  }
  return block;
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function parseImport(text: string, line: number): ImportDecl | undefined {
  const m = IMPORT_RE.exec(text);
  if (!m) return undefined;
  if (m[2] !== undefined) return { source: m[2], line, named: [] };
  const clause = (m[3] ?? '').trim();
  const decl: ImportDecl = { source: m[5] ?? '', line, named: [] };
  const brace = clause.indexOf('{');
  const head = (brace === -1 ? clause : clause.slice(0, brace)).replace(/,\s*$/, '').trim();
  if (head.startsWith('*')) {
    const ns = /^\*\s+as\s+([A-Za-z_$][\w$]*)/.exec(head);
    if (ns?.[1]) decl.namespace = ns[1];
  } else if (head) {
    const [def, rest] = head.split(',').map((p) => p.trim());
    if (def && IDENT_RE.test(def)) decl.defaultName = def;
    const ns = rest ? /^\*\s+as\s+([A-Za-z_$][\w$]*)/.exec(rest) : null;
    if (ns?.[1]) decl.namespace = ns[1];
  }
  if (brace !== -1) {
    const inner = clause.slice(brace + 1, clause.lastIndexOf('}'));
    for (const part of inner.split(',')) {
      const [imported, local] = part.trim().split(/\s+as\s+/).map((p) => p.trim());
      if (imported && IDENT_RE.test(imported)) {
        decl.named.push({ imported, local: local && IDENT_RE.test(local) ? local : imported });
      }
    }
  }
  return decl;
}

function parseExport(text: string, line: number): ExportDecl | undefined {
  const c = EXPORT_CONST_RE.exec(text);
  if (c?.[1]) return { name: c[1], line, value: parseExportValue(c[2] ?? '', text, line) };
  const f = EXPORT_FUNCTION_RE.exec(text);
  if (f) {
    const name = f[1] ?? 'default';
    return { name, line, value: { kind: 'opaque', reason: 'a function declaration' } };
  }
  return undefined;
}

function parseExportValue(valueText: string, statement: string, line: number): ExportValue {
  const literal = parseLiteral(valueText);
  if (literal !== NOT_LITERAL) return { kind: 'literal', value: literal };
  const head = ARROW_HEAD_RE.exec(valueText);
  if (!head) return { kind: 'opaque', reason: 'an expression that is not a literal' };
  let body = valueText.slice(head[0].length).trim();
  if (body.startsWith('(')) body = body.slice(1, body.lastIndexOf(')')).trim();
  if (!body.startsWith('<')) return { kind: 'opaque', reason: 'a function with a body' };
  const params = new Map<string, Literal>();
  let propsName: string | undefined;
  const param = (head[1] ?? head[2] ?? '').trim();
  if (param.startsWith('{')) {
    for (const part of splitTopLevel(param.slice(1, param.lastIndexOf('}')))) {
      const eq = part.indexOf('=');
      const name = (eq === -1 ? part : part.slice(0, eq)).trim();
      if (!IDENT_RE.test(name)) continue;
      const def = eq === -1 ? undefined : parseLiteral(part.slice(eq + 1));
      params.set(name, def === NOT_LITERAL ? undefined : def);
    }
  } else if (IDENT_RE.test(param)) {
    propsName = param;
  }
  const bodyOffset = statement.indexOf(body);
  const bodyLine = line + (bodyOffset === -1 ? 0 : countNewlines(statement, 0, bodyOffset));
  return propsName === undefined
    ? { kind: 'arrow', params, body, bodyLine }
    : { kind: 'arrow', params, propsName, body, bodyLine };
}

/** Splits `a, b = {x: 1}, c` at commas that are not nested in brackets or strings. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.filter((p) => p.trim() !== '');
}
