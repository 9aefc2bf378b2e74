/**
 * Evaluation of `{…}` expressions without running code: comments vanish, literals are read by the
 * safe literal parser, and names (`{product}`, `{props.title}`, `{plans[0].name}`) are looked up
 * in the scope. Anything else is reported as unsupported and shown as written.
 */
import { NOT_LITERAL, parseLiteral, type Literal } from './literal.js';
import type { Scope } from './scope.js';

export type Evaluated = { kind: 'value'; value: Literal } | { kind: 'comment' } | { kind: 'unsupported' };

const COMMENT_ONLY_RE = /^\s*(?:\/\*[\s\S]*?\*\/\s*|\/\/[^\n]*\n\s*)*$/;
const PATH_RE = /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*|\[(?:\d+|"[^"]*"|'[^']*')\])*$/;
const SEGMENT_RE = /[A-Za-z_$][\w$]*|\[(\d+)\]|\["([^"]*)"\]|\['([^']*)'\]/g;

export function evaluate(code: string, scope: Scope): Evaluated {
  if (COMMENT_ONLY_RE.test(code)) return { kind: 'comment' };
  const literal = parseLiteral(code);
  if (literal !== NOT_LITERAL) return { kind: 'value', value: literal };
  const trimmed = code.trim();
  if (PATH_RE.test(trimmed)) {
    const found = lookup(trimmed, scope);
    if (found !== NOT_LITERAL) return { kind: 'value', value: found };
  }
  return { kind: 'unsupported' };
}

function lookup(path: string, scope: Scope): Literal | typeof NOT_LITERAL {
  let current: Literal | typeof NOT_LITERAL = NOT_LITERAL;
  let first = true;
  SEGMENT_RE.lastIndex = 0;
  for (let m = SEGMENT_RE.exec(path); m; m = SEGMENT_RE.exec(path)) {
    const key = m[1] ?? m[2] ?? m[3] ?? m[0];
    if (first) {
      first = false;
      if (!scope.values.has(key)) return NOT_LITERAL;
      current = scope.values.get(key);
      continue;
    }
    if (current === null || current === undefined || typeof current !== 'object') return undefined;
    current = Object.prototype.hasOwnProperty.call(current, key) ? (current as Record<string, Literal>)[key] : undefined;
  }
  return current;
}

/** How React would show a value as text: nothing for null/booleans, arrays joined. */
export function literalToText(value: Literal): string {
  if (value === null || value === undefined || typeof value === 'boolean') return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map(literalToText).join('');
  return JSON.stringify(value);
}
