/**
 * Swagger 2.0 → OpenAPI 3.0, done here rather than by `@mintlify/openapi-parser`'s
 * `upgradeFromTwoToThree`, which calls itself experimental and, on public specs, lost what pages
 * need: `formData` always became `application/x-www-form-urlencoded` (multipart uploads and
 * `type: file` lost), form fields kept only their type and description (enums, formats, arrays
 * gone), a document-wide `consumes`/`produces` overrode the operation's own, a body parameter
 * given as a `$ref` disappeared, `type: basic` security and OAuth2 `application`/`accessCode`
 * flows were kept under 2.0 names that no 3.0 reader knows (so the auth section vanished), and
 * response `examples` per media type were dropped. Mutates and returns the document.
 */
import type { Json } from './load-spec.js';
import { HTTP_METHODS } from './refs.js';

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const FORM_TYPES = ['multipart/form-data', 'application/x-www-form-urlencoded'];
/** Keys of a 2.0 non-body parameter (or header, or `items`) that are its schema in 3.0. */
const SCHEMA_KEYS = ['type', 'format', 'enum', 'default', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems', 'multipleOf'];
/** Values written as examples are data, not schemas: left as they are. */
const EXAMPLE_KEYS = new Set(['example', 'examples', 'x-example', 'x-examples']);
const FLOWS: Record<string, string> = { implicit: 'implicit', password: 'password', application: 'clientCredentials', accessCode: 'authorizationCode' };

/** `#/definitions/X` and friends → their 3.0 places; pointers into other files are left alone. */
function rewriteRefs(node: unknown): void {
  if (Array.isArray(node)) {
    for (const v of node) rewriteRefs(v);
    return;
  }
  if (!isObj(node)) return;
  const ref = node['$ref'];
  if (typeof ref === 'string') {
    node['$ref'] = ref.replace(/^#\/definitions\//, '#/components/schemas/').replace(/^#\/parameters\//, '#/components/parameters/').replace(/^#\/responses\//, '#/components/responses/');
  }
  for (const v of Object.values(node)) rewriteRefs(v);
}

/** 2.0 schema dialect → 3.0: `discriminator` was the property name, `x-nullable`, `type: file`. */
function upgradeSchemas(node: unknown): void {
  if (Array.isArray(node)) {
    for (const v of node) upgradeSchemas(v);
    return;
  }
  if (!isObj(node)) return;
  if (typeof node['discriminator'] === 'string') node['discriminator'] = { propertyName: node['discriminator'] };
  if (node['x-nullable'] === true) node['nullable'] = true;
  if (node['type'] === 'file') {
    node['type'] = 'string';
    node['format'] = 'binary';
  }
  for (const [k, v] of Object.entries(node)) if (!EXAMPLE_KEYS.has(k)) upgradeSchemas(v);
}

/** The schema a 2.0 parameter, header or `items` carries on itself. */
function schemaOf(p: Json): Json {
  const s: Json = {};
  // `type: file` becomes binary in upgradeSchemas, which walks the paths and components at the end.
  for (const k of SCHEMA_KEYS) if (p[k] !== undefined) s[k] = p[k];
  if (isObj(p['items'])) s['items'] = p['items']['$ref'] !== undefined ? p['items'] : schemaOf(p['items']);
  const description = p['description'];
  if (typeof description === 'string' && p['in'] === 'formData') s['description'] = description;
  return s;
}

/** `collectionFormat` → `style`/`explode` (2.0's default `csv` is 3.0's `form` without explode in a query). */
function styleOf(p: Json): Json {
  const format = typeof p['collectionFormat'] === 'string' ? p['collectionFormat'] : p['type'] === 'array' ? 'csv' : undefined;
  const where = p['in'];
  if (format === 'multi') return { style: 'form', explode: true };
  if (format === 'ssv') return { style: 'spaceDelimited', explode: false };
  if (format === 'pipes') return { style: 'pipeDelimited', explode: false };
  if (format === 'csv') return where === 'query' || where === 'cookie' ? { style: 'form', explode: false } : { style: 'simple', explode: false };
  return {};
}

function extensions(from: Json): Json {
  return Object.fromEntries(Object.entries(from).filter(([k]) => k.startsWith('x-') && k !== 'x-example'));
}

function upgradeParameter(p: Json): Json {
  if (p['$ref'] !== undefined) return p;
  const out: Json = { name: p['name'], in: p['in'], ...extensions(p) };
  for (const k of ['description', 'required', 'deprecated', 'allowEmptyValue']) if (p[k] !== undefined) out[k] = p[k];
  Object.assign(out, styleOf(p));
  out['schema'] = schemaOf(p);
  if (p['x-example'] !== undefined) out['example'] = p['x-example'];
  return out;
}

function upgradeResponse(r: Json, produces: string[]): Json {
  if (r['$ref'] !== undefined) return r;
  const out: Json = { ...extensions(r), description: typeof r['description'] === 'string' ? r['description'] : '' };
  if (isObj(r['headers'])) {
    out['headers'] = Object.fromEntries(Object.entries(r['headers']).map(([name, h]) => {
      if (!isObj(h)) return [name, h];
      const header: Json = { ...extensions(h), schema: schemaOf(h) };
      if (typeof h['description'] === 'string') header['description'] = h['description'];
      return [name, header];
    }));
  }
  const examples = isObj(r['examples']) ? r['examples'] : {};
  const types = r['schema'] !== undefined ? produces : [];
  const content: Json = {};
  for (const type of new Set([...types, ...Object.keys(examples)])) {
    const media: Json = {};
    if (r['schema'] !== undefined) media['schema'] = r['schema'];
    if (examples[type] !== undefined) media['example'] = examples[type];
    content[type] = media;
  }
  if (Object.keys(content).length > 0) out['content'] = content;
  return out;
}

/** A parameter as written or, when it is a `#/parameters/` pointer, what it points at. */
function deref(p: unknown, doc: Json): unknown {
  if (!isObj(p) || typeof p['$ref'] !== 'string') return p;
  const m = /^#\/parameters\/(.+)$/.exec(p['$ref']);
  const shared = isObj(doc['parameters']) && m ? doc['parameters'][m[1]!.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return isObj(shared) ? shared : p;
}

/** A body or form parameter (written or shared): it becomes part of the operation's requestBody. */
function inBody(p: unknown, doc: Json): boolean {
  const d = deref(p, doc);
  return isObj(d) && (d['in'] === 'body' || d['in'] === 'formData');
}

function upgradeOperation(op: Json, pathParams: unknown[], doc: Json): void {
  const consumes = (Array.isArray(op['consumes']) ? op['consumes'] : Array.isArray(doc['consumes']) ? doc['consumes'] : ['application/json']) as string[];
  const produces = (Array.isArray(op['produces']) ? op['produces'] : Array.isArray(doc['produces']) ? doc['produces'] : ['application/json']) as string[];
  // The operation's parameters override the path's by name and place.
  const byKey = new Map<string, unknown>();
  for (const raw of [...pathParams, ...(Array.isArray(op['parameters']) ? op['parameters'] : [])]) {
    const p = deref(raw, doc);
    byKey.set(isObj(p) && p['$ref'] === undefined ? `${String(p['in'])}:${String(p['name'])}` : `ref:${byKey.size}`, inBody(raw, doc) ? p : raw);
  }
  const params = [...byKey.values()];
  const body = params.find((p): p is Json => isObj(p) && p['in'] === 'body');
  const form = params.filter((p): p is Json => isObj(p) && p['in'] === 'formData');
  // The path's own parameters stay on the path item; only the operation's are upgraded here.
  const own = Array.isArray(op['parameters']) ? op['parameters'] : [];
  const rest = own.filter((p) => !inBody(p, doc));
  if (body) {
    const content: Json = {};
    const examples = isObj(body['x-examples']) ? body['x-examples'] : {};
    for (const type of consumes.filter((t) => !FORM_TYPES.includes(t)).concat(consumes.every((t) => FORM_TYPES.includes(t)) ? consumes : [])) {
      content[type] = { schema: body['schema'] ?? {}, ...(examples[type] !== undefined ? { example: examples[type] } : {}) };
    }
    op['requestBody'] = { content, ...(typeof body['description'] === 'string' ? { description: body['description'] } : {}), ...(body['required'] === true ? { required: true } : {}) };
  } else if (form.length > 0) {
    const listed = consumes.filter((t) => FORM_TYPES.includes(t));
    const types = listed.length > 0 ? listed : [form.some((p) => p['type'] === 'file') ? 'multipart/form-data' : 'application/x-www-form-urlencoded'];
    const required = form.filter((p) => p['required'] === true).map((p) => p['name']);
    const schema: Json = { type: 'object', properties: Object.fromEntries(form.map((p) => [p['name'], schemaOf(p)])), ...(required.length > 0 ? { required } : {}) };
    op['requestBody'] = { content: Object.fromEntries(types.map((t) => [t, { schema }])), ...(required.length > 0 ? { required: true } : {}) };
  }
  if (rest.length > 0) op['parameters'] = rest.map((p) => (isObj(p) ? upgradeParameter(p) : p));
  else delete op['parameters'];
  if (isObj(op['responses'])) {
    op['responses'] = Object.fromEntries(Object.entries(op['responses']).map(([status, r]) => [status, isObj(r) ? upgradeResponse(r, produces) : r]));
  }
  delete op['consumes'];
  delete op['produces'];
  delete op['schemes'];
}

function isLoopback(host: string): boolean {
  const name = host.replace(/:\d+$/, '').replace(/^\[|\]$/g, '').toLowerCase();
  return name === 'localhost' || name.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(name) || name === '0.0.0.0' || name === '::1';
}

export function upgradeSwagger2(doc: Json): Json {
  const host = typeof doc['host'] === 'string' && doc['host'].trim() !== '' ? doc['host'] : undefined;
  const basePath = typeof doc['basePath'] === 'string' ? doc['basePath'] : '';
  // HTTP schemes only: grpc-gateway lists `wss` beside them, which no request example can be sent to.
  const listed = (Array.isArray(doc['schemes']) ? doc['schemes'] : []).filter((x): x is string => typeof x === 'string' && /^https?$/i.test(x)).map((x) => x.toLowerCase());
  // None: "the scheme used to access the definition", unknown here. HTTPS, but a loopback host
  // (swag's `host: localhost:8080`) is a development server that speaks plain HTTP.
  const schemes = listed.length > 0 ? listed : host !== undefined && isLoopback(host) ? ['http'] : ['https'];
  // No host: the API is on the host that serves the document, under basePath (a relative server).
  const servers = host ? schemes.map((s) => ({ url: `${s}://${host}${basePath}` })) : basePath ? [{ url: basePath }] : [];
  if (isObj(doc['paths'])) {
    for (const item of Object.values(doc['paths'])) {
      if (!isObj(item)) continue;
      const pathParams = Array.isArray(item['parameters']) ? item['parameters'] : [];
      for (const m of HTTP_METHODS) if (isObj(item[m])) upgradeOperation(item[m], pathParams, doc);
      // Body and form parameters now live in each operation's requestBody.
      const kept = pathParams.filter((p) => !inBody(p, doc));
      if (kept.length > 0) item['parameters'] = kept.map((p) => (isObj(p) ? upgradeParameter(p) : p));
      else delete item['parameters'];
    }
  }
  const components: Json = isObj(doc['components']) ? doc['components'] : {};
  if (isObj(doc['definitions'])) components['schemas'] = doc['definitions'];
  if (isObj(doc['parameters'])) {
    const shared = Object.entries(doc['parameters']).filter(([, p]) => isObj(p) && p['in'] !== 'body' && p['in'] !== 'formData');
    if (shared.length > 0) components['parameters'] = Object.fromEntries(shared.map(([k, p]) => [k, upgradeParameter(p as Json)]));
  }
  const produces = (Array.isArray(doc['produces']) ? doc['produces'] : ['application/json']) as string[];
  if (isObj(doc['responses'])) components['responses'] = Object.fromEntries(Object.entries(doc['responses']).map(([k, r]) => [k, isObj(r) ? upgradeResponse(r, produces) : r]));
  if (isObj(doc['securityDefinitions'])) {
    components['securitySchemes'] = Object.fromEntries(Object.entries(doc['securityDefinitions']).map(([k, s]) => {
      if (!isObj(s)) return [k, s];
      const description = typeof s['description'] === 'string' ? { description: s['description'] } : {};
      if (s['type'] === 'basic') return [k, { type: 'http', scheme: 'basic', ...description, ...extensions(s) }];
      if (s['type'] !== 'oauth2') return [k, s];
      const flow: Json = { scopes: isObj(s['scopes']) ? s['scopes'] : {} };
      if (s['authorizationUrl'] !== undefined) flow['authorizationUrl'] = s['authorizationUrl'];
      if (s['tokenUrl'] !== undefined) flow['tokenUrl'] = s['tokenUrl'];
      return [k, { type: 'oauth2', flows: { [FLOWS[String(s['flow'])] ?? 'implicit']: flow }, ...description, ...extensions(s) }];
    }));
  }
  for (const k of ['swagger', 'host', 'basePath', 'schemes', 'consumes', 'produces', 'definitions', 'parameters', 'responses', 'securityDefinitions']) delete doc[k];
  doc['openapi'] = '3.0.3';
  if (servers.length > 0) doc['servers'] = servers;
  if (Object.keys(components).length > 0) doc['components'] = components;
  upgradeSchemas(doc['components']);
  upgradeSchemas(doc['paths']);
  rewriteRefs(doc);
  return doc;
}
