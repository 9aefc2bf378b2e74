import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Response } from 'supertest';
import { buildOpenApiDocument } from '../../app/openapi/index.js';

/**
 * Checks a response against the OpenAPI document: the path and method are described, the status
 * is one of the operation's responses, every header the response declares is present, and a JSON
 * body validates against the declared schema. Integration tests run it on every response.
 */
type Json = Record<string, unknown>;
const doc = buildOpenApiDocument() as unknown as Json;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'doc', components: (doc.components as Json) ?? {} });

const validators = new Map<unknown, ReturnType<typeof ajv.compile>>();
const paths = Object.entries(doc.paths as Record<string, Json>).map(([template, item]) => ({
  template,
  regex: new RegExp('^' + template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+') + '$'),
  item,
}));

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value && typeof value === 'object') {
    const out: Json = {};
    for (const [k, v] of Object.entries(value as Json)) out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `doc${v}` : rewriteRefs(v);
    return out;
  }
  return value;
}

function resolve(obj: Json): Json {
  let cur = obj;
  while (typeof cur.$ref === 'string') {
    const parts = (cur.$ref as string).replace(/^#\//, '').split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    cur = parts.reduce<Json>((node, key) => node[key] as Json, doc);
  }
  return cur;
}

export interface SpecCheckInput {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  contentType?: string | undefined;
}

/** Throws with a readable message when the response does not match the document. */
export function checkAgainstSpec(r: SpecCheckInput): void {
  const pathOnly = r.path.split('?')[0]!;
  const match = paths.find((p) => p.regex.test(pathOnly));
  const where = `${r.method.toUpperCase()} ${pathOnly} → ${r.status}`;
  if (!match) {
    if (r.status === 404 || r.status === 401) return; // unknown routes: the catch-all, not an operation
    throw new Error(`${where}: path not described in the OpenAPI document`);
  }
  const op = match.item[r.method.toLowerCase()] as Json | undefined;
  if (!op) {
    if (r.status === 404 || r.status === 401) return;
    throw new Error(`${where}: method not described in the OpenAPI document`);
  }
  const responses = op.responses as Record<string, Json>;
  const declared = responses[String(r.status)] ?? responses.default;
  if (!declared) throw new Error(`${where}: status not described (described: ${Object.keys(responses).join(', ')})`);
  const response = resolve(declared);
  for (const name of Object.keys((response.headers as Json | undefined) ?? {})) {
    if (r.headers[name.toLowerCase()] === undefined) throw new Error(`${where}: missing declared header ${name}`);
  }
  const content = response.content as Record<string, Json> | undefined;
  if (!content) return;
  const jsonSchema = content['application/json']?.schema;
  if (jsonSchema && r.method.toUpperCase() !== 'HEAD') {
    if (!r.contentType?.includes('json')) throw new Error(`${where}: expected a JSON body, got ${r.contentType ?? 'none'}`);
    let validate = validators.get(jsonSchema);
    if (!validate) {
      validate = ajv.compile(rewriteRefs(jsonSchema) as Json);
      validators.set(jsonSchema, validate);
    }
    if (!validate(r.body)) {
      throw new Error(`${where}: body does not match the schema: ${ajv.errorsText(validate.errors)}\nbody: ${JSON.stringify(r.body).slice(0, 500)}`);
    }
  }
}

/** For supertest's `.expect(fn)`. */
export function expectSpec(res: Response): void {
  const req = (res as unknown as { req: { method: string; path: string } }).req;
  checkAgainstSpec({ method: req.method, path: req.path, status: res.status, headers: res.headers as Record<string, string>, body: res.body, contentType: res.headers['content-type'] });
}
