/**
 * Hand-written examples as a reader in no group may see them (issue 40, reader access on): an
 * `example` / `examples` value written in the spec is one block of code, so it cannot be marked per
 * group; the keys of properties with `x-mint.groups` (of the schema the example sits beside, at any
 * depth) and the enum values `x-mint-enum` restricts are left out of it. Two forms: the worker's
 * resolved ApiSchema (public-view.ts) and the spec document itself (without-groups.ts: the `.md`
 * copy and the spec's public copy). A value that needs nothing left out is returned as it is.
 */
import type { ApiSchema, JsonValue } from './types.js';

type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const shownValue = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** A schema's view of an example: which keys go, which schema the kept keys' values follow. */
interface ExampleRules<S> {
  /** Keys to leave out, and the schemas of the kept keys (several with `oneOf`). */
  keys(s: S): { hidden: Set<string>; shown: Map<string, S[]> };
  items(s: S): S[];
  /** True when a scalar value is an enum value only some groups see. */
  restrictedValue(s: S, v: unknown): boolean;
}

const MAX_DEPTH = 24;

function filterWith<S>(value: unknown, schemas: S[], rules: ExampleRules<S>, depth: number): unknown {
  if (depth > MAX_DEPTH || schemas.length === 0) return value;
  if (Array.isArray(value)) {
    const items = schemas.flatMap((s) => rules.items(s));
    const kept = value.filter((v) => !schemas.some((s) => rules.restrictedValue(s, v))).map((v) => filterWith(v, items, rules, depth + 1));
    return kept.length === value.length && kept.every((v, i) => v === value[i]) ? value : kept;
  }
  if (isObj(value)) {
    const hidden = new Set<string>();
    const shown = new Map<string, S[]>();
    for (const s of schemas) {
      const k = rules.keys(s);
      for (const h of k.hidden) hidden.add(h);
      for (const [name, list] of k.shown) shown.set(name, [...(shown.get(name) ?? []), ...list]);
    }
    let changed = false;
    const out: Json = {};
    for (const [k, v] of Object.entries(value)) {
      const under = shown.get(k) ?? [];
      if (hidden.has(k) || under.some((s) => rules.restrictedValue(s, v))) {
        changed = true;
        continue;
      }
      const c = filterWith(v, under, rules, depth + 1);
      if (c !== v) changed = true;
      out[k] = c;
    }
    return changed ? out : value;
  }
  // Specs often give a JSON example as a string (example.ts exampleCode): filtered as that JSON.
  if (typeof value === 'string' && /^\s*[[{]/.test(value)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      return value;
    }
    const c = filterWith(parsed, schemas, rules, depth);
    return c === parsed ? value : JSON.stringify(c, null, 2);
  }
  return value;
}

// --- the worker's ApiSchema ------------------------------------------------------------------

function apiSchemas(s: ApiSchema): ApiSchema[] {
  return [s, ...(s.variants ?? []).filter((v) => !v.schema.groups).map((v) => v.schema)];
}

const apiRules: ExampleRules<ApiSchema> = {
  keys(s) {
    const hidden = new Set<string>();
    const shown = new Map<string, ApiSchema[]>();
    const ofRestrictedVariant = new Set<string>();
    const props = [...(s.properties ?? []).map((p) => [p, false] as const), ...(s.variants ?? []).flatMap((v) => (v.schema.properties ?? []).map((p) => [p, v.schema.groups !== undefined] as const))];
    for (const [p, inRestrictedVariant] of props) {
      if (p.schema.groups) hidden.add(p.name);
      else if (inRestrictedVariant) ofRestrictedVariant.add(p.name);
      else shown.set(p.name, [...(shown.get(p.name) ?? []), p.schema]);
    }
    // A key of a restricted variant goes unless a variant everyone sees has it too.
    for (const name of ofRestrictedVariant) if (!shown.has(name)) hidden.add(name);
    for (const name of hidden) shown.delete(name);
    return { hidden, shown };
  },
  items: (s) => [...(s.items ? apiSchemas(s.items) : []), ...(s.prefixItems ?? [])],
  restrictedValue: (s, v) => s.enumGroups !== undefined && (typeof v !== 'object' || v === null) && s.enumGroups[shownValue(v)] !== undefined,
};

/** An example written beside `schema` (the original, groups still on it) as every reader may see it. */
export function publicExample(value: JsonValue, schema: ApiSchema | undefined): JsonValue {
  return schema ? (filterWith(value, [schema], apiRules, 0) as JsonValue) : value;
}

// --- the spec document -----------------------------------------------------------------------

function ownGroups(v: unknown): boolean {
  return isObj(v) && isObj(v['x-mint']) && Array.isArray(v['x-mint']['groups']) && v['x-mint']['groups'].length > 0;
}

/** Follows local `$ref`s (a few hops); groups on the way restrict, as without-groups.ts reads them. */
function deref(root: Json, v: unknown): { schema: Json | undefined; restricted: boolean } {
  let at = v;
  let restricted = false;
  for (let hop = 0; hop < 8; hop++) {
    if (ownGroups(at)) restricted = true;
    if (!isObj(at)) return { schema: undefined, restricted };
    const ref = at['$ref'];
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return { schema: at, restricted };
    let next: unknown = root;
    for (const part of ref.slice(2).split('/')) next = isObj(next) ? next[decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
    at = next;
  }
  return { schema: undefined, restricted };
}

function docRules(root: Json): ExampleRules<Json> {
  /** The schema and those it is made of (`allOf`), and the variants everyone sees (`oneOf`/`anyOf`). */
  const parts = (s: Json, restrictedVariants?: Json[]): Json[] => {
    const out: Json[] = [s];
    for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
      const list = s[key];
      if (!Array.isArray(list)) continue;
      for (const item of list) {
        const d = deref(root, item);
        if (!d.schema) continue;
        if (d.restricted && key !== 'allOf') restrictedVariants?.push(d.schema);
        else out.push(...parts(d.schema, restrictedVariants));
      }
    }
    return out;
  };
  return {
    keys(s) {
      const hidden = new Set<string>();
      const shown = new Map<string, Json[]>();
      const restrictedVariants: Json[] = [];
      for (const part of parts(s, restrictedVariants)) {
        if (!isObj(part['properties'])) continue;
        for (const [name, p] of Object.entries(part['properties'])) {
          const d = deref(root, p);
          if (d.restricted) hidden.add(name);
          else if (d.schema) shown.set(name, [...(shown.get(name) ?? []), d.schema]);
        }
      }
      for (const v of restrictedVariants) for (const part of parts(v)) if (isObj(part['properties'])) for (const name of Object.keys(part['properties'])) if (!shown.has(name)) hidden.add(name);
      for (const name of hidden) shown.delete(name);
      return { hidden, shown };
    },
    items(s) {
      const out: Json[] = [];
      for (const part of parts(s)) {
        for (const item of [part['items'], ...(Array.isArray(part['prefixItems']) ? part['prefixItems'] : [])]) {
          const d = deref(root, item);
          if (d.schema && !d.restricted) out.push(d.schema);
        }
      }
      return out;
    },
    restrictedValue(s, v) {
      if (typeof v === 'object' && v !== null) return false;
      return parts(s).some((part) => isObj(part['x-mint-enum']) && Object.hasOwn(part['x-mint-enum'], shownValue(v)));
    },
  };
}

/** An example value in the document, written beside `schema` (a schema object or a `$ref`). */
export function publicDocExample(value: unknown, schema: unknown, root: Json): unknown {
  const d = deref(root, schema);
  return d.schema ? filterWith(value, [d.schema], docRules(root), 0) : value;
}
