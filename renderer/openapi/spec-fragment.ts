/**
 * The part of an OpenAPI document one operation needs, as the hosted platform puts it in the
 * Markdown of an API page (mintlify-docs ai/markdown-export.mdx, "API reference pages"): the
 * document's `openapi`, `info`, `servers`, `security` and `tags`, the one path (or webhook) with
 * the one method, and the components the operation refers to, followed from `$ref` to `$ref`.
 *
 * The plan names the operation (`FragmentRef`); the render worker cuts the fragment from the
 * document it was handed once with the export's context, so the main thread does no work per page
 * for it and no copy of a shared schema travels with every page.
 */
import type { ParsedSpec } from './load-spec.js';
import type { OperationEntry } from './operation.js';

type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Which operation of which document a page's Markdown shows, and the label of its code fence. */
export interface FragmentRef {
  /** The page's `openapi` frontmatter as written, or `<spec> <method> <path>` for a generated page. */
  label: string;
  /** The spec's repository path: the key of its document in the render context. */
  file: string;
  /** `paths` or `webhooks`, and the key under it. */
  group: 'paths' | 'webhooks';
  key: string;
  /** The HTTP method, lower-case, as the path item's key. */
  method: string;
}

export function fragmentRef(spec: ParsedSpec, entry: OperationEntry, written?: string): FragmentRef {
  const webhook = entry.method === 'WEBHOOK';
  const method = entry.httpMethod.toLowerCase();
  const label = written?.trim() ? written.trim().replace(/\s+/g, ' ') : webhook ? `${spec.file} webhook ${entry.path}` : `${spec.file} ${method} ${entry.path}`;
  return { label, file: spec.file, group: webhook ? 'webhooks' : 'paths', key: entry.path, method };
}

/** What a fragment is made of: the parts every page of a document shares, and this page's own. */
export interface Fragment {
  /** `openapi`, `info`, `servers`, `security` (`[]` when the document has none) and `tags`. */
  head: Json;
  group: 'paths' | 'webhooks';
  key: string;
  /** The path item with only this method (and the item's own `parameters` and `servers`). */
  pathItem: Json;
  /** Components the operation reaches, by kind, in the document's order. */
  components: { kind: string; names: string[] }[];
}

/** `#/components/<kind>/<name>…` → kind and name (JSON-pointer escapes undone). */
function componentOf(ref: string): { kind: string; name: string } | undefined {
  if (!ref.startsWith('#/components/')) return undefined;
  const [kind, name] = ref.slice('#/components/'.length).split('/');
  if (!kind || name === undefined || name === '') return undefined;
  return { kind, name: name.replace(/~1/g, '/').replace(/~0/g, '~') };
}

/** `#/components/<kind>/<name>` for a kind and name (the form componentOf reads back). */
export function componentKey(kind: string, name: string): string {
  return `#/components/${kind}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** Every `$ref` string in a tree (each object visited once: a shared or circular node too). */
export function refsIn(root: unknown): string[] {
  const out: string[] = [];
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const v of node) if (typeof v === 'object' && v !== null) stack.push(v);
      continue;
    }
    const target = (node as Json)['$ref'];
    if (typeof target === 'string') out.push(target);
    for (const v of Object.values(node)) if (typeof v === 'object' && v !== null) stack.push(v);
  }
  return out;
}

/** Per document: each component's own `$ref`s, found once. */
const componentRefs = new WeakMap<Json, Map<string, string[]>>();

function refsMemo(doc: Json): Map<string, string[]> {
  let memo = componentRefs.get(doc);
  if (!memo) componentRefs.set(doc, (memo = new Map()));
  return memo;
}

/** Per document: each kind of component with the position of each name, in document order. */
const componentOrder = new WeakMap<Json, Map<string, Map<string, number>>>();

function orderMemo(doc: Json, components: Json): Map<string, Map<string, number>> {
  let order = componentOrder.get(doc);
  if (!order) {
    order = new Map();
    for (const [kind, all] of Object.entries(components)) if (isObj(all)) order.set(kind, new Map(Object.keys(all).map((n, i) => [n, i])));
    componentOrder.set(doc, order);
  }
  return order;
}

/** The operation without `x-mint`: its content and metadata are the page itself, above the spec. */
function withoutMint(op: Json): Json {
  if (!Object.hasOwn(op, 'x-mint')) return op;
  const { ['x-mint']: _mint, ...rest } = op;
  return rest;
}

/** A local `$ref` to a path item (`#/paths/~1users`), followed once; anything else as it is. */
function pathItemOf(doc: Json, item: unknown): Json | undefined {
  if (!isObj(item)) return undefined;
  const ref = item['$ref'];
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return item;
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/')) node = isObj(node) ? node[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return isObj(node) ? node : undefined;
}

/**
 * The fragment of `doc` that `ref` names, or undefined when the document has no such operation
 * any more. `$ref`s to other files, and local ones outside `#/components`, stay as written; a
 * circular schema is included once.
 */
export function specFragment(doc: Json, ref: FragmentRef): Fragment | undefined {
  const group = doc[ref.group];
  const item = isObj(group) ? pathItemOf(doc, group[ref.key]) : undefined;
  // OpenAPI 3.2's additionalOperations hold methods under their own spelling (`SUBSCRIBE`).
  const extra = isObj(item?.['additionalOperations']) ? Object.entries(item['additionalOperations']).find(([m]) => m.toLowerCase() === ref.method) : undefined;
  const op = item?.[ref.method] ?? extra?.[1];
  if (!item || !isObj(op)) return undefined;
  const components = isObj(doc['components']) ? doc['components'] : {};
  const pathItem: Json = {};
  for (const key of ['parameters', 'servers'] as const) if (item[key] !== undefined) pathItem[key] = item[key];
  if (item[ref.method] === undefined && extra) pathItem['additionalOperations'] = { [extra[0]]: withoutMint(op) };
  else pathItem[ref.method] = withoutMint(op);
  // Components reached: those the path item names, then those they name, from the memo of each
  // component's own references (a page walks its operation, not every schema it reaches again).
  const picked = new Map<string, Set<string>>();
  const queue: string[] = [];
  const include = (key: string): void => {
    const c = componentOf(key);
    if (!c) return;
    const all = components[c.kind];
    if (!isObj(all) || !Object.hasOwn(all, c.name)) return;
    let names = picked.get(c.kind);
    if (!names) picked.set(c.kind, (names = new Set()));
    if (names.has(c.name)) return;
    names.add(c.name);
    queue.push(componentKey(c.kind, c.name));
  };
  for (const r of refsIn(pathItem)) include(r);
  // Security schemes the operation (or, when it names none, the document) asks for.
  const security = op['security'] ?? doc['security'];
  for (const requirement of Array.isArray(security) ? security : []) {
    if (isObj(requirement)) for (const name of Object.keys(requirement)) include(componentKey('securitySchemes', name));
  }
  const memo = refsMemo(doc);
  for (let i = 0; i < queue.length; i++) {
    const key = queue[i] as string;
    let refs = memo.get(key);
    if (!refs) {
      const c = componentOf(key) as { kind: string; name: string };
      memo.set(key, (refs = refsIn((components[c.kind] as Json)[c.name])));
    }
    for (const r of refs) include(r);
  }
  const head: Json = { openapi: doc['openapi'] ?? doc['swagger'], info: doc['info'] ?? {} };
  if (doc['servers'] !== undefined) head['servers'] = doc['servers'];
  head['security'] = doc['security'] ?? [];
  if (doc['tags'] !== undefined) head['tags'] = doc['tags'];
  // In the document's order of kinds and names, not the order they were reached in.
  const order = orderMemo(doc, components);
  const ordered: Fragment['components'] = [];
  for (const [kind, positions] of order) {
    const mine = picked.get(kind);
    if (mine) ordered.push({ kind, names: [...mine].sort((a, b) => (positions.get(a) as number) - (positions.get(b) as number)) });
  }
  return { head, group: ref.group, key: ref.key, pathItem, components: ordered };
}

/** The fragment as one document: what its YAML says, for tests and for readers of this code. */
export function fragmentDocument(doc: Json, f: Fragment): Json {
  const all = isObj(doc['components']) ? doc['components'] : {};
  const out: Json = { ...f.head, [f.group]: { [f.key]: f.pathItem } };
  if (f.components.length > 0) {
    out['components'] = Object.fromEntries(f.components.map(({ kind, names }) => [kind, Object.fromEntries(names.map((n) => [n, (all[kind] as Json)[n]]))]));
  }
  return out;
}
