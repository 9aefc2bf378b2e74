import { describe, expect, it } from 'vitest';
import { evaluate } from '../../../renderer/page/evaluate.js';
import { NOT_LITERAL, parseLiteral } from '../../../renderer/page/literal.js';
import { emptyScope } from '../../../renderer/page/scope.js';

describe('safe literal reading (never eval)', () => {
  it('reads JSON-ish literals: unquoted keys, single quotes, trailing commas, templates, comments', () => {
    expect(parseLiteral(`{ name: 'Pro', "price": 10.5, tags: ['a', "b",], nested: { ok: true, none: null }, // note
      t: \`x\\ny\`, }`)).toEqual({ name: 'Pro', price: 10.5, tags: ['a', 'b'], nested: { ok: true, none: null }, t: 'x\ny' });
    expect(parseLiteral('-0x10')).toBe(-16);
    expect(parseLiteral('1_000')).toBe(1000);
    expect(parseLiteral('"\\u00e9\\x41"')).toBe('éA');
    expect(parseLiteral('undefined')).toBeUndefined();
  });

  it('refuses anything that would need evaluation', () => {
    for (const code of ['`a ${b}`', 'foo()', '() => 1', '1 + 2', 'new Date()', '[1, x]', '{ a: b }', '{ [k]: 1 }', '"unterminated', 'process.exit(1)']) {
      expect(parseLiteral(code), code).toBe(NOT_LITERAL);
    }
  });

  it('keeps __proto__ keys as plain data', () => {
    const value = parseLiteral('{ "__proto__": { "polluted": true } }') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBeNull();
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('looks names up without reaching prototypes', () => {
    const scope = emptyScope();
    scope.values.set('plan', { name: 'Pro', list: ['x', 'y'] });
    expect(evaluate('plan.name', scope)).toEqual({ kind: 'value', value: 'Pro' });
    expect(evaluate('plan.list[1]', scope)).toEqual({ kind: 'value', value: 'y' });
    expect(evaluate('plan.constructor', scope)).toEqual({ kind: 'value', value: undefined });
    expect(evaluate('plan.name.length', scope)).toEqual({ kind: 'value', value: undefined });
    expect(evaluate('missing', scope)).toEqual({ kind: 'unsupported' });
    expect(evaluate(' /* only a comment */ ', scope)).toEqual({ kind: 'comment' });
  });
});
