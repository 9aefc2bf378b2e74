import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/**
 * The hosted platform's published OpenAPI documents (test/fixtures/hosted-openapi), as a checker
 * of the appliance's answers: a documented status must match its response (content type,
 * declared headers, body schema); an undocumented one must carry the document's error shape.
 * OpenAPI 3.0 schemas (`nullable`, `example`) are converted to JSON Schema 2020-12 for ajv;
 * 3.1 documents are JSON Schema already.
 */
type Json = Record<string, unknown>;
export type DocName = 'admin' | 'analytics' | 'static-export' | 'discovery' | 'external';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'hosted-openapi');
const FILES: Record<DocName, string> = { admin: 'admin-openapi.json', analytics: 'analytics.openapi.json', 'static-export': 'static-export-openapi.json', discovery: 'discovery-openapi.json', external: 'openapi.json' };
/** The schema a body of an undocumented (error) status must match, per document. */
const ERROR_SCHEMA: Record<DocName, string | Json> = {
  admin: 'Error',
  analytics: 'AnalyticsErrorResponse',
  'static-export': 'Error',
  // The discovery document names no error schema; its one error body (page 404) is `{message}`.
  // The external API document (project update, preview) declares no error schema: its inline
  // `{error: string}` bodies are the admin document's `Error`.
  external: 'admin#/components/schemas/Error',
  discovery: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
};
/** The field of the error shape that carries the message. */
const ERROR_FIELD: Record<DocName, string> = { admin: 'error', analytics: 'error', 'static-export': 'error', discovery: 'message', external: 'error' };

export const docs = Object.fromEntries(Object.entries(FILES).map(([name, file]) => [name, JSON.parse(fs.readFileSync(path.join(FIXTURES, file), 'utf8')) as Json])) as Record<DocName, Json>;

/** The path prefix of a document's server (`https://api.mintlify.com/v1` → `/v1`): the appliance serves the same paths. */
export const serverPath = (doc: DocName): string => new URL(((docs[doc].servers as Json[])[0]!.url as string)).pathname.replace(/\/+$/, '');

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** An OpenAPI 3.0 schema object as JSON Schema 2020-12; `$ref`s point into the document added under `doc`. */
export function toJsonSchema(schema: unknown, doc: string): unknown {
  if (Array.isArray(schema)) return schema.map((s) => toJsonSchema(s, doc));
  if (!schema || typeof schema !== 'object') return schema;
  const node = schema as Json;
  let out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'nullable' || k === 'example' || k === 'xml' || k === 'externalDocs' || k === 'discriminator') continue;
    if (k === '$ref' && typeof v === 'string' && v.startsWith('#/')) out.$ref = `${doc}${v}`;
    else if (SCHEMA_MAPS.has(k) && v && typeof v === 'object') out[k] = Object.fromEntries(Object.entries(v as Json).map(([name, s]) => [name, toJsonSchema(s, doc)]));
    else if (k === 'enum' || k === 'const' || k === 'default' || k === 'required' || k === 'examples') out[k] = v;
    else out[k] = toJsonSchema(v, doc);
  }
  if (node.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (Array.isArray(out.type) && !out.type.includes('null')) out.type = [...(out.type as string[]), 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    if (out.type === undefined) out = { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
for (const name of Object.keys(docs) as DocName[]) {
  const components = (docs[name].components ?? {}) as Json;
  ajv.addSchema({ $id: name, components: { schemas: toJsonSchema(components.schemas ?? {}, name) } });
}

const resolve = (doc: DocName, node: Json): Json => {
  let cur = node;
  while (typeof cur.$ref === 'string') {
    cur = (cur.$ref as string).replace(/^#\//, '').split('/').reduce<Json>((n, key) => n[key] as Json, docs[doc]);
  }
  return cur;
};

/** The operation of a document, by method and path template (relative to the document's server). */
export function operation(doc: DocName, method: string, template: string): Json {
  const op = (docs[doc].paths as Record<string, Json>)[template]?.[method.toLowerCase()] as Json | undefined;
  if (!op) throw new Error(`${doc}: no operation ${method.toUpperCase()} ${template}`);
  return op;
}

/** Every operation of a document: [METHOD, template]. */
export function operations(doc: DocName): Array<[string, string]> {
  return Object.entries(docs[doc].paths as Record<string, Json>).flatMap(([template, item]) =>
    Object.keys(item)
      .filter((m) => ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'].includes(m))
      .map((m): [string, string] => [m.toUpperCase(), template]),
  );
}

const validators = new Map<unknown, ValidateFunction>();
function validatorFor(doc: DocName, schema: unknown): ValidateFunction {
  let v = validators.get(schema);
  if (!v) {
    v = ajv.compile(toJsonSchema(schema, doc) as Json);
    validators.set(schema, v);
  }
  return v;
}

export interface Answer {
  status: number;
  headers: Headers;
  /** The parsed JSON body, the text of a non-JSON body, or undefined when none was read. */
  body: unknown;
}

/** Statuses seen per operation (`doc METHOD template` → statuses), for the coverage check. */
export const seen = new Map<string, Set<number>>();
/** Undocumented statuses seen per operation, checked against the error shape. */
export const undocumented = new Map<string, Set<number>>();

/**
 * Check one answer of `METHOD template` against `doc`. A documented status: the content type is
 * one the response declares, each declared header is present (and matches its schema), a JSON
 * body validates. An undocumented status: a JSON body in the document's error shape with a
 * non-empty `error` message. Throws with the reason.
 */
export function checkAnswer(doc: DocName, method: string, template: string, a: Answer): void {
  const op = operation(doc, method, template);
  const key = `${doc} ${method.toUpperCase()} ${template}`;
  const where = `${key} → ${a.status}`;
  (seen.get(key) ?? seen.set(key, new Set()).get(key)!).add(a.status);
  const declared = (op.responses as Record<string, Json>)[String(a.status)];
  const contentType = (a.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (!declared) {
    (undocumented.get(key) ?? undocumented.set(key, new Set()).get(key)!).add(a.status);
    if (contentType !== 'application/json') throw new Error(`${where}: undocumented status with a ${contentType || 'missing'} body, not the error shape`);
    const errorSchema = ERROR_SCHEMA[doc];
    const v = validatorFor(doc, typeof errorSchema === 'string' ? { $ref: errorSchema.includes('#') ? errorSchema : `#/components/schemas/${errorSchema}` } : errorSchema);
    if (!v(a.body)) throw new Error(`${where}: body not in the documented error shape: ${ajv.errorsText(v.errors)}: ${JSON.stringify(a.body)}`);
    const message = (a.body as Json)[ERROR_FIELD[doc]];
    if (typeof message !== 'string' || !message) throw new Error(`${where}: the error shape needs an error message: ${JSON.stringify(a.body)}`);
    return;
  }
  const response = resolve(doc, declared);
  for (const [name, h] of Object.entries((response.headers as Record<string, Json> | undefined) ?? {})) {
    const value = a.headers.get(name);
    if (value === null) throw new Error(`${where}: declared header ${name} is missing`);
    const schema = resolve(doc, h).schema;
    if (schema) {
      const v = validatorFor(doc, schema);
      if (!v(value)) throw new Error(`${where}: header ${name}: ${ajv.errorsText(v.errors)}`);
    }
  }
  const content = response.content as Record<string, Json> | undefined;
  if (!content) return;
  if (!Object.keys(content).includes(contentType)) throw new Error(`${where}: content type ${contentType || 'none'}, declared: ${Object.keys(content).join(', ')}`);
  const schema = content[contentType]!.schema;
  if (contentType === 'application/json' && schema) {
    const v = validatorFor(doc, schema);
    if (!v(a.body)) throw new Error(`${where}: body does not match the published schema: ${ajv.errorsText(v.errors)}\nbody: ${JSON.stringify(a.body).slice(0, 500)}`);
  }
}
