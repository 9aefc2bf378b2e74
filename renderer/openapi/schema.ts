/**
 * A JSON Schema (OpenAPI 3.0 or 3.1 flavour, `$ref`s unresolved) → ApiSchema, the acyclic shape a
 * page shows. `allOf` is merged into one object (as Mintlify does), `oneOf`/`anyOf` become
 * variants, `anyOf: [X, {type: null}]` is X marked nullable, and a schema met again on its own
 * path is cut (`circular`). A page's schemas share a node budget so a huge spec cannot make one
 * page huge; past it, deeper fields are cut (`budget`).
 */
import type { RefResolver } from './resolve.js';
import { nameUntitled, withOwnFields } from './choices.js';
import { componentKey } from './spec-fragment.js';
import type { ApiCondition, ApiConditionPart, ApiConstraint, ApiProperty, ApiSchema, JsonValue } from './types.js';
import type { Json } from './load-spec.js';

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Schema nodes per page; past this, nested fields are not expanded. */
export const MAX_SCHEMA_NODES = 3000;
/** Nesting shown at most (objects in arrays in objects…). */
export const MAX_SCHEMA_DEPTH = 16;

export interface SchemaContext {
  resolver: RefResolver;
  /** Nodes left in this page's budget. */
  budget: { left: number };
  /** `api.params.post`: schema keys shown as pills. */
  postKeys: readonly string[];
}

/** A value safe to carry as data (examples and defaults are JSON, but a YAML anchor can make a cycle). */
export function jsonValue(v: unknown, depth = 0): JsonValue | undefined {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (v instanceof Date) return v.toISOString();
  if (depth > 32) return undefined;
  if (Array.isArray(v)) return v.map((x) => jsonValue(x, depth + 1) ?? null);
  if (isObj(v)) {
    const out: Record<string, JsonValue> = {};
    for (const [k, x] of Object.entries(v)) {
      const j = jsonValue(x, depth + 1);
      if (j !== undefined) out[k] = j;
    }
    return out;
  }
  return undefined;
}

function pills(v: unknown): string[] {
  if (typeof v === 'string' && v !== '') return [v];
  if (typeof v === 'number') return [String(v)];
  if (Array.isArray(v)) return v.flatMap((x) => (typeof x === 'string' && x !== '' ? [x] : typeof x === 'number' ? [String(x)] : []));
  return [];
}

/**
 * A bound as written: past 2^53 a JSON number has lost digits (Discord's int64 fields declare
 * `minimum: -9223372036854775808, maximum: 9223372036854775807`, read back as ±9223372036854776000).
 * An integer that large is shown exactly, and 2^63 (what int64's maximum rounds to) as that maximum.
 */
function bound(n: number, s: Json): string {
  if (!Number.isInteger(n) || Math.abs(n) <= Number.MAX_SAFE_INTEGER) return String(n);
  if (n === 2 ** 63 && s['format'] === 'int64') return '9223372036854775807';
  if (n === 2 ** 64 && s['format'] === 'uint64') return '18446744073709551615';
  return BigInt(n).toString();
}

/**
 * Keywords that only constrain arrays, on a schema that cannot be one: Kubernetes' spec writes
 * `uniqueItems: true` on every path and query parameter (strings, booleans, integers), which read
 * "Items must be unique" under each of them.
 */
const notArray = (s: Json): boolean => {
  const t = s['type'];
  const types = Array.isArray(t) ? t : typeof t === 'string' ? [t] : [];
  return types.length > 0 && !types.includes('array');
};

function constraints(s: Json): ApiConstraint[] {
  const out: ApiConstraint[] = [];
  const num = (k: string): number | undefined => (typeof s[k] === 'number' ? (s[k] as number) : undefined);
  const line = (kind: ApiConstraint['kind'], k: string): void => {
    const n = num(k);
    if (n !== undefined) out.push({ kind, value: String(n) });
  };
  const arrayOnly = !notArray(s);
  const min = num('minimum');
  const max = num('maximum');
  // 3.0: exclusiveMinimum is a boolean on minimum; 3.1: a number of its own.
  const exMin = typeof s['exclusiveMinimum'] === 'number' ? (s['exclusiveMinimum'] as number) : s['exclusiveMinimum'] === true ? min : undefined;
  const exMax = typeof s['exclusiveMaximum'] === 'number' ? (s['exclusiveMaximum'] as number) : s['exclusiveMaximum'] === true ? max : undefined;
  const lo = exMin !== undefined ? `${bound(exMin, s)} < ` : min !== undefined ? `${bound(min, s)} <= ` : '';
  const hi = exMax !== undefined ? ` < ${bound(exMax, s)}` : max !== undefined ? ` <= ${bound(max, s)}` : '';
  if (lo || hi) out.push({ kind: 'requiredRange', value: `${lo}x${hi}` });
  line('minLength', 'minLength');
  line('maxLength', 'maxLength');
  if (typeof s['pattern'] === 'string') out.push({ kind: 'pattern', value: s['pattern'] });
  if (arrayOnly) line('minItems', 'minItems');
  if (arrayOnly) line('maxItems', 'maxItems');
  if (arrayOnly && s['uniqueItems'] === true) out.push({ kind: 'uniqueItems' });
  line('multipleOf', 'multipleOf');
  line('minProperties', 'minProperties');
  line('maxProperties', 'maxProperties');
  return out;
}

// `{type: null}`, and drf-spectacular's `NullEnum` (`{enum: [null]}`) or `{const: null}`.
const isNullSchema = (s: unknown): boolean =>
  isObj(s) &&
  (s['type'] === 'null' || (Array.isArray(s['type']) && s['type'].length === 1 && s['type'][0] === 'null') || (Array.isArray(s['enum']) && s['enum'].length === 1 && s['enum'][0] === null) || ('const' in s && s['const'] === null));

const STRUCTURE = ['properties', 'items', 'oneOf', 'anyOf', 'allOf', 'additionalProperties', 'patternProperties', 'prefixItems'];

/**
 * A choice that only lists values: drf-spectacular's `StatusEnum`, `BlankEnum` (`enum: ['']`), or
 * one documented value (`{const: 1, title: PUBLIC, description}`, how Discord's spec and JSON
 * Schema style guides write an enum whose values need words).
 */
const isEnumOnly = (s: unknown): s is Json =>
  isObj(s) && ((Array.isArray(s['enum']) && s['enum'].length > 0) || (s['const'] !== undefined && !Array.isArray(s['enum']))) && !STRUCTURE.some((k) => k in s);

const valuesOf = (s: Json): unknown[] => (Array.isArray(s['enum']) ? s['enum'] : [s['const']]);

/** A bare type, nothing else said of it (`{type: string}`): the open half of an open enum. */
const isBareType = (s: unknown): s is Json =>
  isObj(s) && typeof s['type'] === 'string' && !STRUCTURE.some((k) => k in s) && !('enum' in s) && !('const' in s) && !['pattern', 'format', 'minLength', 'maxLength', 'minimum', 'maximum'].some((k) => k in s);

interface Walk {
  ctx: SchemaContext;
  /** Resolved schema objects on the current path → their position on it (cycle detection by identity). */
  stack: Map<unknown, number>;
  /** What each walk step of this compaction met, in order: what a named schema's memo is made from. */
  trail: Step[];
}

/**
 * One walk step: the schema object it entered (or, for a memo reused, the objects of that subtree),
 * its depth, and whether it was cut: `hit` is the stack position of the ancestor a circular
 * reference pointed at (Infinity when none), `cut` a budget or depth cut.
 */
interface Step {
  node?: unknown;
  nodes?: ReadonlySet<unknown>;
  depth: number;
  hit: number;
  cut: boolean;
}

/**
 * A named schema (`#/components/schemas/Customer`) compacted once, reused by every later operation
 * that meets it where the walk would come out the same: its circular cuts all point inside it, it
 * had no budget or depth cut, none of its objects is on the new path, and the new budget and depth
 * leave room for all of it. A 1,000-operation spec whose operations share a few schemas compacted
 * each of them a thousand times on the main thread, before any page could render.
 */
interface Memo {
  result: ApiSchema;
  nodes: ReadonlySet<unknown>;
  /** Budget the subtree used. */
  count: number;
  /** Deepest step below its root. */
  height: number;
}

/** Per schema object (the parsed spec's own; they go with it), by name, file and `api.params.post`. */
const memos = new WeakMap<object, Map<string, Memo>>();

/**
 * Schema objects the memos of one export may list in all (each memo lists its subtree's, about
 * 40 bytes each): a spec of thousands of large, interlinked schemas stops adding memos there and
 * is walked as before, instead of holding hundreds of MB on the main thread.
 */
export const MAX_MEMO_NODES = 1_000_000;
const memoRoom = new WeakMap<RefResolver, { left: number }>();

function roomFor(resolver: RefResolver, size: number): boolean {
  let room = memoRoom.get(resolver);
  if (!room) memoRoom.set(resolver, (room = { left: MAX_MEMO_NODES }));
  if (room.left < size) return false;
  room.left -= size;
  return true;
}

/** Flatten `allOf` (and nested allOf) into one raw schema; properties merge in order, `required` unions. */
function mergeAllOf(raw: Json, file: string, w: Walk, seen: Set<unknown>): Json {
  const merged: Json = {};
  const properties: Json = {};
  const required = new Set<string>();
  const visit = (node: Json, nodeFile: string): void => {
    if (seen.has(node)) return;
    seen.add(node);
    for (const part of Array.isArray(node['allOf']) ? node['allOf'] : []) {
      const r = w.ctx.resolver.resolve(part, nodeFile);
      if (isObj(r.node)) visit(r.node, r.file);
    }
    for (const [k, v] of Object.entries(node)) {
      if (k === 'allOf' || k === '$ref') continue;
      if (k === 'properties' && isObj(v)) {
        for (const [pk, pv] of Object.entries(v)) properties[pk] = { __file: nodeFile, schema: pv };
      } else if (k === 'required' && Array.isArray(v)) {
        for (const r of v) if (typeof r === 'string') required.add(r);
      } else if (k === 'description' || k === 'title') {
        // The schema's own words win over those of the parts it extends.
        merged[k] = node === raw ? v : (merged[k] ?? v);
      } else if (merged[k] === undefined) {
        merged[k] = v;
      }
    }
  };
  visit(raw, file);
  if (Object.keys(properties).length > 0) {
    merged['properties'] = properties;
    merged['__wrapped'] = true;
    if (merged['type'] === undefined) merged['type'] = 'object';
  }
  if (required.size > 0) merged['required'] = [...required];
  return merged;
}

function baseType(s: Json): { type: string; nullable: boolean } {
  const t = s['type'];
  let nullable = s['nullable'] === true;
  let type: string | undefined;
  if (Array.isArray(t)) {
    const types = t.filter((x): x is string => typeof x === 'string');
    if (types.includes('null')) nullable = true;
    const rest = types.filter((x) => x !== 'null');
    type = rest.length > 0 ? rest.join(' | ') : 'null';
  } else if (typeof t === 'string') {
    type = t;
  }
  if (type === undefined) {
    if (isObj(s['properties']) || isObj(s['additionalProperties']) || isObj(s['patternProperties'])) type = 'object';
    else if (s['items'] !== undefined || Array.isArray(s['prefixItems'])) type = 'array';
    else if (Array.isArray(s['enum']) && s['enum'].length > 0) type = typeof s['enum'][0] === 'number' ? 'number' : typeof s['enum'][0] === 'boolean' ? 'boolean' : 'string';
    else type = 'any';
  }
  return { type, nullable };
}

/**
 * A `$ref` with keywords beside it (OpenAPI 3.1 allows them; FastAPI writes `{$ref, default}`,
 * Redoc's demo `{description, $ref}`): the referenced schema as shown, with those keywords on
 * top. They were dropped with the rest of the reference object.
 */
function walk(rawIn: unknown, fileIn: string, w: Walk, depth: number): ApiSchema {
  const out = walkResolved(rawIn, fileIn, w, depth);
  if (!isObj(rawIn) || typeof rawIn['$ref'] !== 'string') return out;
  let copy: ApiSchema | undefined;
  const description = rawIn['description'];
  if (typeof description === 'string' && description.trim() !== '') (copy ??= { ...out }).description = description;
  if (rawIn['default'] !== undefined) {
    const d = jsonValue(rawIn['default']);
    if (d !== undefined) (copy ??= { ...out }).default = d;
  }
  if (rawIn['example'] !== undefined) {
    const e = jsonValue(rawIn['example']);
    if (e !== undefined) (copy ??= { ...out }).example = e;
  }
  // `nullable` too: Fern (Langfuse's spec) and other 3.0 generators write `{$ref, nullable: true}`
  // for an optional reference, and the field read as never null.
  for (const flag of ['deprecated', 'readOnly', 'writeOnly', 'nullable'] as const) if (rawIn[flag] === true) (copy ??= { ...out })[flag] = true;
  return copy ?? out;
}

function walkResolved(rawIn: unknown, fileIn: string, w: Walk, depth: number): ApiSchema {
  const r = w.ctx.resolver.resolve(rawIn, fileIn);
  if (!isObj(r.node)) return { type: 'any' };
  const onPath = w.stack.get(r.node);
  if (onPath !== undefined) {
    w.trail.push({ node: r.node, depth, hit: onPath, cut: false });
    // Named by its reference, else by its title (an Avro record, a YAML anchor), else its type.
    return { type: r.name ?? (typeof r.node['title'] === 'string' && r.node['title'] !== '' ? r.node['title'] : baseType(r.node).type), cut: 'circular' };
  }
  if (w.ctx.budget.left <= 0 || depth > MAX_SCHEMA_DEPTH) {
    w.trail.push({ node: r.node, depth, hit: Infinity, cut: true });
    const { type } = baseType(r.node);
    return { type, cut: 'budget', ...(typeof r.node['description'] === 'string' ? { description: r.node['description'] } : {}) };
  }
  const key = r.name === undefined ? undefined : `${r.name}\u0000${r.file}\u0000${w.ctx.postKeys.join('\u0000')}`;
  const byKey = key === undefined ? undefined : memos.get(r.node);
  const memo = key === undefined ? undefined : byKey?.get(key);
  if (memo && w.ctx.budget.left >= memo.count && depth + memo.height <= MAX_SCHEMA_DEPTH && !onStack(memo.nodes, w.stack)) {
    w.ctx.budget.left -= memo.count;
    w.trail.push({ nodes: memo.nodes, depth: depth + memo.height, hit: Infinity, cut: false });
    return memo.result;
  }
  const start = w.trail.length;
  const before = w.ctx.budget.left;
  const position = w.stack.size;
  w.trail.push({ node: r.node, depth, hit: Infinity, cut: false });
  w.ctx.budget.left--;
  w.stack.set(r.node, position);
  let result: ApiSchema;
  try {
    result = describe(r.node, r.file, r.name, w, depth);
  } finally {
    w.stack.delete(r.node);
  }
  if (key !== undefined) {
    const made = memoOf(w.trail, start, position, depth);
    if (made && roomFor(w.ctx.resolver, made.nodes.size)) {
      const map = byKey ?? new Map<string, Memo>();
      if (!byKey) memos.set(r.node, map);
      map.set(key, { result, count: before - w.ctx.budget.left, ...made });
    }
  }
  return result;
}

/** True when one of the subtree's objects is on the current path (walking it now would cut there). */
function onStack(nodes: ReadonlySet<unknown>, stack: Map<unknown, number>): boolean {
  for (const node of stack.keys()) if (nodes.has(node)) return true;
  return false;
}

/** The steps of a subtree (from `start`), as a memo, when its result does not depend on where it was walked from. */
function memoOf(trail: Step[], start: number, position: number, depth: number): Pick<Memo, 'nodes' | 'height'> | undefined {
  const nodes = new Set<unknown>();
  let deepest = depth;
  for (let i = start; i < trail.length; i++) {
    const step = trail[i] as Step;
    if (step.cut || step.hit < position) return undefined;
    if (step.nodes) for (const n of step.nodes) nodes.add(n);
    else nodes.add(step.node);
    if (step.depth > deepest) deepest = step.depth;
  }
  return { nodes, height: deepest - depth };
}

/**
 * The schemas an `allOf` merges are on the path too: `rootSpan: {allOf: [$ref Span], description}`
 * (the 3.0 way to describe a reference; Trigger.dev's spec) walked Span's fields as the wrapper's,
 * so a recursive Span was cut one level late, at its own `children` array: "Refers back to
 * `array`" instead of `Span[]`, "Refers back to `Span`".
 */
function describe(node: Json, file: string, name: string | undefined, w: Walk, depth: number): ApiSchema {
  if (!Array.isArray(node['allOf'])) return describeMerged(node, node, file, name, w, depth);
  const seen = new Set<unknown>();
  const merged = mergeAllOf(node, file, w, seen);
  const position = w.stack.get(node) ?? w.stack.size;
  const added = [...seen].filter((n) => !w.stack.has(n));
  for (const n of added) w.stack.set(n, position);
  try {
    return describeMerged(node, merged, file, name, w, depth);
  } finally {
    for (const n of added) w.stack.delete(n);
  }
}

function describeMerged(node: Json, s: Json, file: string, name: string | undefined, w: Walk, depth: number): ApiSchema {
  const choice = (Array.isArray(s['oneOf']) ? s['oneOf'] : Array.isArray(s['anyOf']) ? s['anyOf'] : undefined) as unknown[] | undefined;
  // Each choice with the node it names, resolved once for every use below.
  const resolved = choice?.map((raw) => ({ raw, ...w.ctx.resolver.resolve(raw, file) }));
  const nonNull = resolved?.filter((c) => !isNullSchema(c.node)) ?? [];
  if (resolved) {
    // anyOf/oneOf with a null option: the other option, nullable (FastAPI writes every Optional so).
    if (nonNull.length === 1 && nonNull[0] && resolved.length === 2) {
      const { oneOf: _o, anyOf: _a, ...rest } = s;
      const inner = walk(nonNull[0].raw, file, w, depth);
      const out: ApiSchema = { ...inner, nullable: true };
      applyCommon(out, rest, w);
      return out;
    }
    // Choices that each list values (drf-spectacular: `oneOf: [RoleEnum, BlankEnum, NullEnum]` for
    // a blank-able, nullable choice field) are one list of options, not tabs of one-value enums.
    if (nonNull.length > 1 && nonNull.every((c) => isEnumOnly(c.node))) {
      const { oneOf: _o, anyOf: _a, ...rest } = s;
      const nodes = nonNull.map((c) => c.node as Json);
      const values: JsonValue[] = [];
      let nullable = resolved.length > nonNull.length || baseType(rest).nullable;
      for (const n of nodes) {
        for (const v of valuesOf(n)) {
          const value = jsonValue(v) ?? null;
          if (value === null) nullable = true;
          else if (!values.some((x) => JSON.stringify(x) === JSON.stringify(value))) values.push(value);
        }
      }
      // A documented value has no type of its own (`{const: 1, title}`): the field's, else its value's.
      const own = typeof rest['type'] === 'string' || Array.isArray(rest['type']) ? baseType(rest).type : undefined;
      const typeOf = (n: Json): string => (n['type'] !== undefined || Array.isArray(n['enum']) ? baseType(n).type : typeof n['const'] === 'number' ? (Number.isInteger(n['const']) ? 'integer' : 'number') : typeof n['const']);
      const types = own ? [own] : [...new Set(nodes.filter((n) => valuesOf(n).some((v) => v !== null)).map(typeOf))];
      const out: ApiSchema = { type: types.join(' | ') || 'string', enum: values };
      if (nullable) out.nullable = true;
      applyCommon(out, rest, w);
      // Each value's words: a list naming the value when the choices are single documented values,
      // else (drf-spectacular's lists) the choices' descriptions as they are.
      const documented = nodes.every((n) => valuesOf(n).length === 1) && nodes.some((n) => typeof n['title'] === 'string');
      const words = documented
        ? nodes.flatMap((n) => {
            const v = jsonValue(valuesOf(n)[0]) ?? null;
            const title = typeof n['title'] === 'string' && n['title'] !== String(v) ? ` ${n['title']}` : '';
            const d = typeof n['description'] === 'string' && n['description'].trim() !== '' ? `: ${n['description'].trim()}` : '';
            return v === null ? [] : [`- \`${JSON.stringify(v)}\`${title}${d}`];
          })
        : nodes.map((n) => n['description']).filter((d): d is string => typeof d === 'string' && d.trim() !== '');
      if (words.length > 0) out.description = [...(out.description ? [out.description] : []), words.join(documented ? '\n' : '\n\n')].join('\n\n');
      return out;
    }
    // An open enum (`anyOf: [{type: string}, {type: string, enum: [gpt-4o, …]}]`: OpenAI's and other
    // Stainless-written specs type every model field so): any value of the type, these ones known.
    // It read as two tabs, `string` and `string`, one of them a closed list.
    const bare = nonNull.filter((c) => isBareType(c.node));
    const listed = nonNull.filter((c) => isEnumOnly(c.node));
    if (bare.length === 1 && listed.length > 0 && bare.length + listed.length === nonNull.length) {
      const { oneOf: _o, anyOf: _a, ...rest } = s;
      const type = baseType(bare[0]?.node as Json).type;
      if (listed.every((c) => baseType(c.node as Json).type === type)) {
        const known: JsonValue[] = [];
        for (const c of listed) for (const v of valuesOf(c.node as Json)) {
          const value = jsonValue(v);
          if (value !== undefined && value !== null && !known.some((x) => JSON.stringify(x) === JSON.stringify(value))) known.push(value);
        }
        const out: ApiSchema = { type, known };
        if (resolved.length > nonNull.length || baseType(rest).nullable) out.nullable = true;
        applyCommon(out, rest, w);
        if (out.example === undefined && known[0] !== undefined) out.example = known[0];
        return out;
      }
    }
  }
  const { type, nullable } = baseType(s);
  const out: ApiSchema = { type };
  if (nullable) out.nullable = true;
  let chosen: { nodes: unknown[]; untitled: boolean[] } | undefined;
  if (resolved) {
    // A `null` among several choices (`anyOf: [string, string[], null]`, polar-docs' list filters)
    // makes the field nullable; it is not a tab of its own holding a field typed `null`.
    if (nonNull.length > 0 && nonNull.length < resolved.length) out.nullable = true;
    const untitled: boolean[] = [];
    chosen = { nodes: (nonNull.length > 0 ? nonNull : resolved).map((rc) => rc.node), untitled };
    out.variants = (nonNull.length > 0 ? nonNull : resolved).map((rc, i) => {
      const own = (isObj(rc.node) && typeof rc.node['title'] === 'string' ? rc.node['title'] : undefined) ?? rc.name;
      untitled.push(own === undefined);
      const title = own ?? (isObj(rc.node) ? baseType(rc.node).type : undefined) ?? `Option ${i + 1}`;
      return { title, schema: walk(rc.raw, file, w, depth + 1) };
    });
    nameUntitled(out.variants, untitled, isObj(s['discriminator']) && typeof s['discriminator']['propertyName'] === 'string' ? s['discriminator']['propertyName'] : undefined);
    // A choice that takes null (3.0's `nullable: true` on each choice, as GitHub's spec writes
    // `value: oneOf [{string, nullable}, {integer, nullable}]`) makes the field take it.
    if (out.variants.some((v) => v.schema.nullable)) out.nullable = true;
    // No type of its own: what the choices are (`content: oneOf [string, Part[]]` is `string | object[]`,
    // not `object`).
    const own = isObj(s['properties']) ? 'object' : s['type'] !== undefined ? type : undefined;
    out.type = own ?? ([...new Set(out.variants.map((v) => v.schema.type))].join(' | ') || 'object');
    // Choices that are bare types (`anyOf: [string, integer]`, FastAPI's `loc` items) read as one
    // type, `string | integer`, not as tabs each holding a field named after its type.
    const plain = out.variants.every((v) => !v.schema.properties && !v.schema.variants && !v.schema.items && !v.schema.enum && !v.schema.constraints && !v.schema.description && !v.schema.cut && !['object', 'any'].includes(v.schema.type) && !v.schema.type.includes('|'));
    if (plain && !isObj(s['properties'])) {
      out.type = [...new Set(out.variants.map((v) => (v.schema.format ? `${v.schema.type}<${v.schema.format}>` : v.schema.type)))].join(' | ');
      delete out.variants;
    }
  }
  if (!choice && !out.variants) {
    const subtypes = discriminated(node, name, file, w, depth);
    if (subtypes) out.variants = subtypes;
  }
  // `items` beside a type that is not an array (Redoc's demo: `type: [string, integer, 'null']`) is inert.
  if (type.split(' | ').includes('array')) {
    if (Array.isArray(s['prefixItems']) && s['prefixItems'].length > 0) {
      // A tuple reads as one: `[string, integer]`, then `...T[]` when `items` types what may follow.
      const prefix = s['prefixItems'].map((p) => walk(p, file, w, depth + 1));
      const rest = isObj(s['items']) ? walk(s['items'], file, w, depth + 1) : undefined;
      out.prefixItems = prefix;
      if (rest) out.items = rest;
      out.type = `[${prefix.map((p) => p.type).join(', ')}${rest ? `, ...${rest.type.includes(' ') ? `(${rest.type})` : rest.type}[]` : ''}]`;
    } else {
      const items = walk(s['items'] ?? {}, file, w, depth + 1);
      out.items = items;
      out.type = `${items.type.includes(' ') ? `(${items.type})` : items.type}[]`;
    }
  }
  const props = s['properties'];
  if (isObj(props)) {
    const required = new Set(Array.isArray(s['required']) ? s['required'].filter((x): x is string => typeof x === 'string') : []);
    const list: ApiProperty[] = [];
    for (const [pname, pv] of Object.entries(props)) {
      // Merged allOf properties remember the file they came from.
      const wrapped = s['__wrapped'] === true && isObj(pv) ? (pv as { __file: string; schema: unknown }) : undefined;
      list.push({ name: pname, required: required.has(pname), schema: walk(wrapped ? wrapped.schema : pv, wrapped ? wrapped.__file : file, w, depth + 1) });
    }
    if (list.length > 0) out.properties = list;
  }
  if (isObj(s['patternProperties'])) {
    // Keys named by a pattern: a `{key}` field each (as additionalProperties), the pattern in words.
    for (const [pattern, pv] of Object.entries(s['patternProperties'])) {
      const schema = walk(pv, file, w, depth + 1);
      // A pattern any key matches (TypeBox's Record<string, T> is `^(.*)$`) says nothing: no line.
      const any = /^\^?(?:\(\.\*\)|\.\*)\$?$/.test(pattern);
      (out.properties ??= []).push({ name: '{key}', required: false, schema: any ? schema : { ...schema, constraints: [{ kind: 'keyPattern', value: pattern }, ...(schema.constraints ?? [])] } });
    }
  }
  if (isObj(s['additionalProperties'])) {
    (out.properties ??= []).push({ name: '{key}', required: false, schema: walk(s['additionalProperties'], file, w, depth + 1) });
  }
  if (out.variants && out.properties && chosen) out.variants = withOwnFields(out.properties, out.variants, chosen);
  if (isObj(s['if']) && (isObj(s['then']) || isObj(s['else']))) conditional(out, s, file, w, depth);
  if (name && out.type === 'object' && !out.title) out.title = name;
  applyCommon(out, s, w);
  return out;
}

/** `country` is `US`, `kind` is one of `a`, `b`: an `if` schema's condition as parts, when it is that simple. */
function conditionOf(cond: Json): ApiConditionPart[] | undefined {
  const props = isObj(cond['properties']) ? cond['properties'] : {};
  const parts: ApiConditionPart[] = [];
  for (const [name, p] of Object.entries(props)) {
    if (!isObj(p)) return undefined;
    const value = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));
    if (p['const'] !== undefined) parts.push({ kind: 'is', name, value: value(p['const']) });
    else if (Array.isArray(p['enum']) && p['enum'].length === 1) parts.push({ kind: 'is', name, value: value(p['enum'][0]) });
    else if (Array.isArray(p['enum'])) parts.push({ kind: 'isOneOf', name, values: p['enum'].map(value) });
    else return undefined;
  }
  const required = Array.isArray(cond['required']) ? cond['required'].filter((r): r is string => typeof r === 'string' && !(r in props)) : [];
  for (const r of required) parts.push({ kind: 'given', name: r });
  return parts.length > 0 ? parts : undefined;
}

/**
 * `if`/`then`/`else` on an object (JSON Schema 2020-12, so OpenAPI 3.1; Elysia's and other
 * schema-first specs: "a US address needs a state, its postal code five digits") was ignored: the
 * page showed the fields without the rules. Each field a branch names gets them under its
 * description ("Required when `country` is `US`.", "When `country` is `US`: pattern `[0-9]{5}`."),
 * a field only a branch defines is listed too. The shape, examples and playground are unchanged.
 * The rules are kept as data (`conditions`), put in words by the page in its language: the schema
 * is compacted once for pages in every language.
 */
function conditional(out: ApiSchema, s: Json, file: string, w: Walk, depth: number): void {
  const when = conditionOf(s['if'] as Json);
  const branches: [unknown, ApiCondition['branch']][] = [
    [s['then'], 'then'],
    [s['else'], 'else'],
  ];
  const notes = new Map<string, ApiCondition[]>();
  const extra = new Map<string, ApiSchema>();
  const note = (name: string, c: ApiCondition): void => void (notes.get(name) ?? notes.set(name, []).get(name))?.push(c);
  for (const [raw, branch] of branches) {
    const node = w.ctx.resolver.resolve(raw, file).node;
    if (!isObj(node)) continue;
    const at = { branch, ...(when ? { when } : {}) };
    for (const r of Array.isArray(node['required']) ? node['required'] : []) if (typeof r === 'string') note(r, { ...at, required: true });
    for (const [name, pv] of Object.entries(isObj(node['properties']) ? node['properties'] : {})) {
      const sub = walk(pv, file, w, depth + 1);
      const constraints = sub.constraints && sub.constraints.length > 0 ? { constraints: sub.constraints } : {};
      if (sub.enum || constraints.constraints) note(name, { ...at, ...(sub.enum ? { oneOf: sub.enum.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))) } : {}), ...constraints });
      if (!out.properties?.some((p) => p.name === name) && !extra.has(name)) extra.set(name, sub);
    }
  }
  if (notes.size === 0 && extra.size === 0) return;
  const list = [...(out.properties ?? []), ...[...extra].map(([name, schema]) => ({ name, required: false, schema }))];
  out.properties = list.map((p) => {
    const n = notes.get(p.name);
    // A copy: walked schemas are memoised and shared between operations.
    return n ? { ...p, schema: { ...p.schema, conditions: [...(p.schema.conditions ?? []), ...n] } } : p;
  });
}

/**
 * A base schema's subtypes, from its own `discriminator` where it has no `oneOf` (Redoc's Pet →
 * Cat, Dog; what Spring and other generators write for inheritance): its `mapping`, else the
 * document's schemas whose `allOf` names it (the value is then the schema's name). Each is a
 * choice titled by the value the reader sends, that value its discriminator property's example.
 * Only the schema's own discriminator counts: a subtype that copies it through `allOf` is not
 * a base again.
 */
function discriminated(node: Json, name: string | undefined, file: string, w: Walk, depth: number): ApiSchema['variants'] {
  const d = node['discriminator'];
  if (!isObj(d) || typeof d['propertyName'] !== 'string') return undefined;
  const property = d['propertyName'];
  const targets: [string, string][] = [];
  if (isObj(d['mapping'])) {
    for (const [value, ref] of Object.entries(d['mapping'])) if (typeof ref === 'string') targets.push([value, ref.includes('#') || ref.includes('/') ? ref : componentKey('schemas', ref)]);
  } else if (name) {
    const all = w.ctx.resolver.resolve({ $ref: '#/components/schemas' }, file).node;
    const self = componentKey('schemas', name);
    for (const [other, schema] of Object.entries(isObj(all) ? all : {})) {
      const parts = isObj(schema) && Array.isArray(schema['allOf']) ? schema['allOf'] : [];
      if (other !== name && parts.some((p) => isObj(p) && p['$ref'] === self)) targets.push([other, componentKey('schemas', other)]);
    }
  }
  if (targets.length === 0) return undefined;
  return targets.map(([value, ref]) => {
    const schema = walk({ $ref: ref }, file, w, depth + 1);
    const i = schema.properties?.findIndex((p) => p.name === property) ?? -1;
    const prop = schema.properties?.[i];
    if (!prop || prop.schema.example !== undefined || prop.schema.enum) return { title: value, schema };
    // A copy: walked schemas are memoised and shared between operations.
    const properties = [...(schema.properties ?? [])];
    properties[i] = { ...prop, schema: { ...prop.schema, example: value } };
    return { title: value, schema: { ...schema, properties } };
  });
}

function applyCommon(out: ApiSchema, s: Json, w: Walk): void {
  if (typeof s['title'] === 'string' && !out.title) out.title = s['title'];
  if (typeof s['description'] === 'string' && s['description'].trim() !== '') out.description = s['description'];
  if (typeof s['format'] === 'string') out.format = s['format'];
  if (typeof s['contentMediaType'] === 'string') out.contentMediaType = s['contentMediaType'];
  if (isObj(s['xml'])) {
    const x = s['xml'];
    const xml: NonNullable<ApiSchema['xml']> = {};
    if (typeof x['name'] === 'string' && x['name'] !== '') xml.name = x['name'];
    if (x['wrapped'] === true) xml.wrapped = true;
    if (x['attribute'] === true) xml.attribute = true;
    if (Object.keys(xml).length > 0) out.xml = xml;
  }
  if (Array.isArray(s['enum'])) out.enum = s['enum'].map((v) => jsonValue(v) ?? null);
  else if (s['const'] !== undefined) out.enum = [jsonValue(s['const']) ?? null];
  if (s['default'] !== undefined) {
    const d = jsonValue(s['default']);
    if (d !== undefined) out.default = d;
  }
  if (s['x-default'] !== undefined) {
    const d = jsonValue(s['x-default']);
    if (d !== undefined) out.xDefault = d;
  }
  const c = constraints(s);
  if (c.length > 0) out.constraints = [...(out.constraints ?? []), ...c];
  if (s['deprecated'] === true) out.deprecated = true;
  if (s['readOnly'] === true) out.readOnly = true;
  if (s['writeOnly'] === true) out.writeOnly = true;
  const example = s['example'] !== undefined ? s['example'] : Array.isArray(s['examples']) ? s['examples'][0] : undefined;
  if (example !== undefined) {
    const e = jsonValue(example);
    if (e !== undefined) out.example = e;
  }
  const mint = isObj(s['x-mint']) ? s['x-mint'] : {};
  const pre = pills(mint['pre']);
  if (pre.length > 0) out.pre = pre;
  const post: string[] = [];
  for (const key of w.ctx.postKeys) {
    const v = s[key];
    if (v === true) post.push(key);
    else post.push(...pills(v));
  }
  post.push(...pills(mint['post']));
  if (post.length > 0) out.post = post;
  const groups = groupNames(mint['groups']);
  if (groups.length > 0) out.groups = groups;
  const byValue = s['x-mint-enum'];
  if (isObj(byValue)) {
    const enumGroups: Record<string, string[]> = {};
    for (const [value, list] of Object.entries(byValue)) {
      const g = groupNames(list);
      if (g.length > 0) enumGroups[value] = g;
    }
    if (Object.keys(enumGroups).length > 0) out.enumGroups = enumGroups;
  }
}

/** A group list as written (`["admin", "billing"]`); anything else names no group. */
export function groupNames(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((g): g is string => typeof g === 'string' && g.trim() !== '').map((g) => g.trim()) : [];
}

/** A schema as a page shows it. */
export function compactSchema(raw: unknown, file: string, ctx: SchemaContext): ApiSchema {
  return walk(raw, file, { ctx, stack: new Map(), trail: [] }, 0);
}
