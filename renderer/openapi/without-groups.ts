/**
 * A spec document as the Markdown of API pages prints it (retrieval/api-markdown.ts), with the
 * personalization extensions of schemas (create/personalization.mdx) handled: `x-mint-enum` and
 * `x-mint.groups` are never printed; with reader access on, what they restrict is left out as well
 * (properties and `oneOf`/`anyOf` variants with `x-mint.groups`, the enum values `x-mint-enum`
 * lists, and their keys and values in hand-written `example`/`examples`: example-filter.ts), since a
 * YAML block cannot be cut per reader. Unchanged parts are shared with the
 * original; a document without the extensions is returned as it is.
 */
import { publicDocExample } from './example-filter.js';

type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function ownGroups(v: unknown): boolean {
  if (!isObj(v) || !isObj(v['x-mint'])) return false;
  const groups = v['x-mint']['groups'];
  return Array.isArray(groups) && groups.length > 0;
}

/** The document's target of a local `$ref` (`#/components/schemas/X`), if any. */
function target(root: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = root;
  for (const part of ref.slice(2).split('/')) {
    const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObj(at) && !Array.isArray(at)) return undefined;
    at = (at as Json)[key];
  }
  return at;
}

/** Restricted by its own `x-mint.groups`, or by those of what its local `$ref` points at (a few hops). */
function restricted(v: unknown, root: Json): boolean {
  let at = v;
  for (let hop = 0; hop < 8; hop++) {
    if (ownGroups(at)) return true;
    if (!isObj(at) || typeof at['$ref'] !== 'string') return false;
    at = target(root, at['$ref']);
  }
  return false;
}

/** `names`: `v` maps names to schemas (`properties`), so a key `example` there is a property. */
function clean(v: unknown, access: boolean, seen: Map<unknown, unknown>, root: Json, names = false): unknown {
  if (typeof v !== 'object' || v === null) return v;
  const done = seen.get(v);
  if (done !== undefined) return done;
  // Cycles (YAML aliases) keep the original; a schema reached again later is cleaned then.
  seen.set(v, v);
  let out: unknown = v;
  if (Array.isArray(v)) {
    const items = v.map((item) => clean(item, access, seen, root));
    if (items.some((item, i) => item !== v[i])) out = items;
  } else {
    const obj = v as Json;
    const next: Json = {};
    let changed = false;
    const byValue = isObj(obj['x-mint-enum']) ? obj['x-mint-enum'] : undefined;
    for (const [k, val] of Object.entries(obj)) {
      if (k === 'x-mint-enum') {
        changed = true;
        continue;
      }
      let c = clean(val, access, seen, root, k === 'properties' || k === 'patternProperties');
      if (k === 'x-mint' && isObj(c) && 'groups' in c) {
        const { groups: _g, ...rest } = c;
        changed = true;
        if (Object.keys(rest).length === 0) continue;
        c = rest;
      } else if (access && !names && (k === 'example' || k === 'examples')) {
        // Beside a schema (a media type, a parameter: `schema`) or in the schema itself.
        c = examplesWithout(k, val, 'schema' in obj ? obj['schema'] : obj, root);
      } else if (access && k === 'properties' && isObj(val)) {
        const kept = Object.entries(val).filter(([, p]) => !restricted(p, root));
        if (kept.length !== Object.keys(val).length) c = Object.fromEntries(kept.map(([name, p]) => [name, clean(p, access, seen, root)]));
      } else if (access && k === 'parameters' && Array.isArray(val)) {
        // A parameter is restricted by its own `x-mint.groups` or its schema's.
        const kept = val.filter((p) => !restricted(p, root) && !(isObj(p) && restricted(p['schema'], root)));
        if (kept.length !== val.length) c = kept.map((p) => clean(p, access, seen, root));
      } else if (access && (k === 'oneOf' || k === 'anyOf') && Array.isArray(val)) {
        const kept = val.filter((p) => !restricted(p, root));
        if (kept.length !== val.length) c = kept.map((p) => clean(p, access, seen, root));
      } else if (access && k === 'enum' && Array.isArray(val) && byValue) {
        const kept = val.filter((e) => !Object.hasOwn(byValue, typeof e === 'string' ? e : JSON.stringify(e)));
        if (kept.length !== val.length) c = kept;
      }
      if (c !== val) changed = true;
      next[k] = c;
    }
    if (changed) out = next;
  }
  seen.set(v, out);
  return out;
}

/** `example` (one value) or `examples` (a schema's list, or a media type's map of Example objects). */
function examplesWithout(key: string, val: unknown, schema: unknown, root: Json): unknown {
  if (key === 'example') return publicDocExample(val, schema, root);
  if (Array.isArray(val)) {
    const list = val.map((v) => publicDocExample(v, schema, root));
    return list.some((v, i) => v !== val[i]) ? list : val;
  }
  if (!isObj(val)) return val;
  let changed = false;
  const out: Json = {};
  for (const [name, ex] of Object.entries(val)) {
    const value = isObj(ex) && 'value' in ex ? publicDocExample(ex['value'], schema, root) : undefined;
    if (value !== undefined && value !== (ex as Json)['value']) {
      changed = true;
      out[name] = { ...(ex as Json), value };
    } else out[name] = ex;
  }
  return changed ? out : val;
}

const memo = [new WeakMap<Json, Json>(), new WeakMap<Json, Json>()] as const;

export function docWithoutGroups(doc: Json, readerAccess: boolean): Json {
  const cache = memo[readerAccess ? 1 : 0];
  let out = cache.get(doc);
  if (!out) {
    out = clean(doc, readerAccess, new Map(), doc) as Json;
    cache.set(doc, out);
  }
  return out;
}
