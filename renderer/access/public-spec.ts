import { docWithoutGroups } from '../openapi/without-groups.js';

type Json = Record<string, unknown>;

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An operation a public reader may not see: `METHOD` (or `WEBHOOK`) and path (or webhook name). */
export interface HiddenOperation {
  method: string;
  path: string;
}

function restrictedOp(v: unknown): boolean {
  return isObj(v) && isObj(v['x-mint']) && Array.isArray(v['x-mint']['groups']) && v['x-mint']['groups'].length > 0;
}

/** Every `x-mint*` key dropped, in place (the copy is the caller's own). */
function dropExtensions(v: unknown): void {
  if (Array.isArray(v)) for (const item of v) dropExtensions(item);
  else if (isObj(v)) {
    for (const k of Object.keys(v)) {
      if (k === 'x-mint' || k.startsWith('x-mint-')) delete v[k];
      else dropExtensions(v[k]);
    }
  }
}

/**
 * The spec file as a reader outside every group may download it (issue 40): what `x-mint.groups`
 * and `x-mint-enum` restrict is left out (without-groups.ts), operations with `x-mint.groups` and
 * those whose pages are restricted (`hidden`) are removed, and the personalization extensions are
 * dropped. Written as JSON, which is also YAML, so a `.yaml` name still parses. Undefined when the
 * document cannot be copied as JSON (a YAML alias cycle): the caller then keeps the file restricted.
 */
export function publicSpecText(doc: unknown, hidden: readonly HiddenOperation[]): string | undefined {
  if (!isObj(doc)) return undefined;
  let copy: Json;
  try {
    copy = JSON.parse(JSON.stringify(docWithoutGroups(doc, true))) as Json;
  } catch {
    return undefined;
  }
  const emptied = new Set<Json>();
  const webhooks = isObj(copy['webhooks']) ? copy['webhooks'] : undefined;
  for (const h of hidden) {
    if (h.method === 'WEBHOOK') {
      if (webhooks) delete webhooks[h.path];
      continue;
    }
    const item = isObj(copy['paths']) ? copy['paths'][h.path] : undefined;
    const method = h.method.toLowerCase();
    if (isObj(item) && Object.hasOwn(item, method)) {
      delete item[method];
      emptied.add(item);
    }
  }
  // Restrictions are read from the original: the cleaned copy no longer has `x-mint.groups`.
  const origin = (list: unknown, key: string): unknown => (isObj(list) ? list[key] : undefined);
  for (const [list, orig] of [[copy['paths'], doc['paths']], [webhooks, doc['webhooks']]] as const) {
    if (!isObj(list)) continue;
    for (const [key, item] of Object.entries(list)) {
      if (!isObj(item)) continue;
      const was = origin(orig, key);
      if (restrictedOp(was)) {
        delete list[key];
        continue;
      }
      for (const method of Object.keys(item)) {
        if (!restrictedOp(origin(was, method))) continue;
        delete item[method];
        emptied.add(item);
      }
      // A path emptied of its operations would still name a restricted endpoint.
      if (emptied.has(item) && !Object.keys(item).some((k) => METHODS.has(k))) delete list[key];
    }
  }
  // Restricted definitions themselves: references to them from properties, variants and parameters
  // are gone already (without-groups.ts); one used elsewhere (a whole body) would dangle (fail closed).
  const components = isObj(copy['components']) ? copy['components'] : {};
  const origComponents = isObj(doc['components']) ? doc['components'] : {};
  for (const [list, orig] of [[components['schemas'], origComponents['schemas']], [components['parameters'], origComponents['parameters']], [copy['definitions'], doc['definitions']], [copy['parameters'], doc['parameters']]] as const) {
    if (!isObj(list)) continue;
    for (const key of Object.keys(list)) if (restrictedOp(origin(orig, key))) delete list[key];
  }
  dropExtensions(copy);
  return `${JSON.stringify(copy, null, 2)}\n`;
}
