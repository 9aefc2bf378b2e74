/**
 * One operation (or webhook) of a parsed spec → ApiOperation, the data its page is rendered from.
 * Path-level parameters and servers are inherited, `security` falls back to the document's (not a webhook's),
 * security schemes and parameters may be `$ref`s. Runs on the main thread, once per page.
 */
import type { Json, ParsedSpec } from './load-spec.js';
import { withoutLoneStars } from './prose.js';
import { HTTP_METHODS } from './refs.js';
import { fillServer, type ServerTemplate } from './server-variables.js';
import type { RefResolver } from './resolve.js';
import { compactSchema, groupNames, jsonValue, MAX_SCHEMA_NODES, type SchemaContext } from './schema.js';
import type { ApiCallback, ApiMedia, ApiOperation, ApiParameter, ApiResponse, ApiSecurity, JsonValue } from './types.js';

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
/** An operation's description: also its frontmatter `description` when one paragraph (plan.ts). */
const proseOf = (v: unknown): string | undefined => str(typeof v === 'string' ? withoutLoneStars(v) : v);

/** An operation as the plan lists it, before compaction. */
export interface OperationEntry {
  /** `GET`…, or `WEBHOOK` for an entry of `webhooks`. */
  method: string;
  /** The HTTP method of the operation itself (a webhook's is usually POST). */
  httpMethod: string;
  path: string;
  op: Json;
  pathItem: Json;
  /**
   * The file the path item was read from: the spec's, or the one its `$ref` names
   * (`paths/users.yaml`). `$ref`s inside it are relative to that file. For an operation that is
   * itself a `$ref` (DigitalOcean's split spec), the operation's file; `itemFile` is then the path item's.
   */
  file: string;
  itemFile?: string;
  tags: string[];
  summary?: string;
  hidden: boolean;
  excluded: boolean;
  deprecated: boolean;
}

/** Every operation and webhook of a spec, in document order. */
export function listOperations(spec: ParsedSpec, resolver: RefResolver): OperationEntry[] {
  const out: OperationEntry[] = [];
  const add = (group: unknown, webhook: boolean): void => {
    if (!isObj(group)) return;
    for (const [path, itemRaw] of Object.entries(group)) {
      const { node: item, file } = resolver.resolve(itemRaw, spec.file);
      if (!isObj(item)) continue;
      // OpenAPI 3.2's additionalOperations: methods the fixed fields do not name (`SUBSCRIBE`, `PURGE`).
      const extra = isObj(item['additionalOperations']) ? Object.entries(item['additionalOperations']).filter(([m]) => /^[A-Za-z][A-Za-z-]*$/.test(m) && !(HTTP_METHODS as readonly string[]).includes(m.toLowerCase())) : [];
      for (const [m, opRaw] of [...HTTP_METHODS.map((m) => [m, item[m]] as const), ...extra]) {
        // An operation written as a `$ref` to a file of its own (not in OpenAPI's grammar, but
        // DigitalOcean's spec is split so, and bundlers follow it): read from that file.
        const own = isObj(opRaw) && typeof opRaw['$ref'] === 'string' ? resolver.resolve(opRaw, file) : undefined;
        const op = own ? own.node : opRaw;
        if (!isObj(op)) continue;
        const mint = isObj(op['x-mint']) ? op['x-mint'] : {};
        const entry: OperationEntry = {
          method: webhook ? 'WEBHOOK' : m.toUpperCase(),
          httpMethod: m.toUpperCase(),
          path,
          op,
          pathItem: item,
          file: own ? own.file : file,
          tags: Array.isArray(op['tags']) ? op['tags'].filter((t): t is string => typeof t === 'string') : [],
          hidden: op['x-hidden'] === true || mint['hidden'] === true,
          excluded: op['x-excluded'] === true || mint['excluded'] === true,
          deprecated: op['deprecated'] === true,
        };
        if (own && own.file !== file) entry.itemFile = file;
        const summary = str(op['summary']);
        if (summary) entry.summary = summary;
        out.push(entry);
      }
    }
  };
  add(spec.doc['paths'], false);
  add(spec.doc['webhooks'], true);
  return out;
}

/** Settings from docs.json `api` that shape every generated page. */
export interface ApiSettings {
  /** `api.mdx.server` / `api.baseUrl`: base URLs when the spec names none. */
  servers: string[];
  fullUrl: boolean;
  languages: string[];
  requiredOnly: boolean;
  autogenerate: boolean;
  expandAll: boolean;
  postKeys: string[];
  /** docs.json `markdown.schema` (default true): the page's Markdown carries its part of the spec. */
  specInMarkdown: boolean;
}

/** A `servers` list's URLs, variables filled (server-variables.ts), and their templates by the same index. */
function serverUrls(list: unknown): { urls: string[]; templates: (ServerTemplate | null)[] } {
  const urls: string[] = [];
  const templates: (ServerTemplate | null)[] = [];
  for (const s of Array.isArray(list) ? list : []) {
    if (!isObj(s) || typeof s['url'] !== 'string') continue;
    const { url, template } = fillServer(s['url'], s['variables']);
    // A blank URL (Apidog exports list `url: ''` as their "Cloud Mock" first; `{base}` whose default
    // is '') names no server.
    if (url.trim() === '' || urls.includes(url)) continue;
    urls.push(url);
    templates.push(template ?? null);
  }
  return { urls, templates };
}

function examplesOf(media: Json, file: string, resolver: RefResolver): { name: string; value: JsonValue }[] {
  const out: { name: string; value: JsonValue }[] = [];
  if (isObj(media['examples'])) {
    for (const [name, exRaw] of Object.entries(media['examples'])) {
      const ex = resolver.resolve(exRaw, file).node;
      if (!isObj(ex)) continue;
      const v = exampleValue(ex);
      if (v !== undefined) out.push({ name: str(ex['summary']) ?? name, value: v });
    }
  }
  // `examples` written as a list (schema-style, which the document's schema refuses; OAI's own
  // api-with-examples does it): its items are the examples, rather than none.
  if (Array.isArray(media['examples'])) {
    media['examples'].forEach((raw, i, all) => {
      const v = jsonValue(raw);
      if (v !== undefined) out.push({ name: all.length > 1 ? `Example ${i + 1}` : 'Example', value: v });
    });
  }
  if (out.length === 0 && media['example'] !== undefined) {
    const v = jsonValue(media['example']);
    if (v !== undefined) out.push({ name: 'Example', value: v });
  }
  return out;
}

function mediaList(content: unknown, file: string, ctx: SchemaContext): ApiMedia[] {
  if (!isObj(content)) return [];
  return Object.entries(content).map(([type, raw]) => {
    const { node: media, file: at } = ctx.resolver.resolve(raw, file);
    const m: ApiMedia = { type, examples: isObj(media) ? examplesOf(media, at, ctx.resolver) : [] };
    if (isObj(media) && media['schema'] !== undefined) m.schema = compactSchema(media['schema'], at, ctx);
    // 3.2 `itemSchema`: each item of a stream (JSON Lines, server-sent events) is shown as a list's items.
    else if (isObj(media) && media['itemSchema'] !== undefined) m.schema = compactSchema({ type: 'array', items: media['itemSchema'] }, at, ctx);
    const deep = isObj(media) && /x-www-form-urlencoded|multipart\/form-data/i.test(type) ? deepFieldsOf(media['encoding']) : [];
    if (deep.length > 0) m.deepFields = deep;
    return m;
  });
}

/** Form fields a media type's `encoding` sends as `deepObject` (Stripe declares one for each object and list field). */
function deepFieldsOf(encoding: unknown): string[] {
  return isObj(encoding) ? Object.entries(encoding).filter(([, e]) => isObj(e) && e['style'] === 'deepObject').map(([name]) => name) : [];
}

/** The value of the first entry of an `examples` map (parameters and headers carry one too). */
function firstExample(examples: unknown, file: string, resolver: RefResolver): JsonValue | undefined {
  if (!isObj(examples)) return undefined;
  for (const raw of Object.values(examples)) {
    const ex = resolver.resolve(raw, file).node;
    const v = isObj(ex) ? exampleValue(ex) : undefined;
    if (v !== undefined) return v;
  }
  return undefined;
}

/** An Example Object's value: `value`, or OpenAPI 3.2's `dataValue`. */
function exampleValue(ex: Json): JsonValue | undefined {
  const raw = ex['value'] !== undefined ? ex['value'] : ex['dataValue'];
  return raw === undefined ? undefined : jsonValue(raw);
}

function parameter(raw: unknown, from: string, ctx: SchemaContext): ApiParameter | undefined {
  // Refs inside a parameter are relative to the file the parameter itself is in.
  const { node: p, file } = ctx.resolver.resolve(raw, from);
  if (!isObj(p)) return undefined;
  const name = str(p['name']);
  const where = p['in'];
  if (!name || (where !== 'path' && where !== 'query' && where !== 'header' && where !== 'cookie')) return undefined;
  // "If in is "header" and the name field is "Accept", "Content-Type" or "Authorization", the
  // parameter definition SHALL be ignored" (OpenAPI 3.x). Scribe lists the first two on every
  // endpoint, and the request examples then sent a second Content-Type. `Authorization` is kept:
  // specs without a security scheme document their auth that way (security-params.ts leaves it
  // out of the examples when a scheme sends it).
  if (where === 'header' && /^(?:accept|content-type)$/i.test(name)) return undefined;
  let schema = p['schema'];
  let contentType: string | undefined;
  // `content` instead of `schema` (a JSON-encoded query parameter): its one media type's schema.
  if (schema === undefined && isObj(p['content'])) {
    const [type, first] = Object.entries(p['content'])[0] ?? [];
    if (isObj(first)) schema = first['schema'];
    contentType = type;
  }
  // Swagger 2.0 puts the type on the parameter itself (the library's upgrade leaves it there).
  if (schema === undefined && typeof p['type'] === 'string') {
    schema = Object.fromEntries(['type', 'format', 'items', 'enum', 'default', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern'].filter((k) => p[k] !== undefined).map((k) => [k, p[k]]));
  }
  const out: ApiParameter = {
    name,
    in: where,
    required: where === 'path' || p['required'] === true,
    deprecated: p['deprecated'] === true,
    schema: compactSchema(schema ?? {}, file, ctx),
  };
  // `x-mint.groups` on the parameter itself (create/personalization.mdx: "properties within request
  // bodies, parameters, or responses") restricts it as its schema's would: one list, on the schema.
  const groups = groupNames(isObj(p['x-mint']) ? p['x-mint']['groups'] : undefined);
  if (groups.length > 0) out.schema = { ...out.schema, groups: [...new Set([...(out.schema.groups ?? []), ...groups])] };
  const description = str(p['description']);
  if (description) out.description = description;
  const ex = p['example'] !== undefined ? jsonValue(p['example']) : firstExample(p['examples'], file, ctx.resolver);
  if (ex !== undefined) out.example = ex;
  if (typeof p['style'] === 'string') out.style = p['style'];
  if (typeof p['explode'] === 'boolean') out.explode = p['explode'];
  if (contentType !== undefined) out.contentType = contentType;
  return out;
}

function responsesOf(raw: unknown, file: string, ctx: SchemaContext): ApiResponse[] {
  const responses: ApiResponse[] = [];
  const { resolver } = ctx;
  if (!isObj(raw)) return responses;
  for (const [status, rawResponse] of Object.entries(raw)) {
    const { node: r, file: at } = resolver.resolve(rawResponse, file);
    if (!isObj(r)) continue;
    const headers: ApiParameter[] = [];
    if (isObj(r['headers'])) {
      for (const [name, h] of Object.entries(r['headers'])) {
        const header = resolver.resolve(h, at);
        const hp = parameter({ ...(isObj(header.node) ? header.node : {}), name, in: 'header' }, header.file, ctx);
        if (hp) headers.push({ ...hp, required: false });
      }
    }
    const resp: ApiResponse = { status, media: mediaList(r['content'], at, ctx), headers };
    const description = str(r['description']);
    if (description) resp.description = description;
    responses.push(resp);
  }
  return responses;
}

function requestBodyOf(raw: unknown, file: string, ctx: SchemaContext): ApiOperation['requestBody'] {
  if (raw === undefined) return undefined;
  const { node: body, file: at } = ctx.resolver.resolve(raw, file);
  if (!isObj(body)) return undefined;
  const rb: NonNullable<ApiOperation['requestBody']> = { required: body['required'] === true, media: mediaList(body['content'], at, ctx) };
  const d = str(body['description']);
  if (d) rb.description = d;
  return rb;
}

/**
 * `callbacks`: the requests the API makes to a URL the caller gave, shown on the operation's page
 * as Mintlify does (between the body and the responses), each with its method and expression.
 */
function callbacksOf(raw: unknown, file: string, ctx: SchemaContext): ApiCallback[] {
  const out: ApiCallback[] = [];
  const { node: map, file: mapFile } = ctx.resolver.resolve(raw, file);
  if (!isObj(map)) return out;
  for (const [name, cbRaw] of Object.entries(map)) {
    const { node: cb, file: cbFile } = ctx.resolver.resolve(cbRaw, mapFile);
    if (!isObj(cb)) continue;
    for (const [expression, itemRaw] of Object.entries(cb)) {
      const { node: item, file: at } = ctx.resolver.resolve(itemRaw, cbFile);
      if (!isObj(item) || expression.startsWith('x-')) continue;
      for (const m of HTTP_METHODS) {
        const op = item[m];
        if (!isObj(op)) continue;
        const entry: ApiCallback = { name, expression, method: m.toUpperCase(), responses: responsesOf(op['responses'], at, ctx) };
        const summary = str(op['summary']);
        if (summary) entry.summary = summary;
        const description = proseOf(op['description']);
        if (description) entry.description = description;
        if (op['deprecated'] === true) entry.deprecated = true;
        const body = requestBodyOf(op['requestBody'], at, ctx);
        if (body) entry.requestBody = body;
        out.push(entry);
      }
    }
  }
  return out;
}

/**
 * `inherit`: whether the document's `security` applies when the operation names none. Not for a
 * webhook: the document's credentials are how a client calls the API, and a webhook is the API
 * calling the reader's endpoint (Resend's spec: `bearerAuth` for the API, Svix signatures on its
 * webhooks); a webhook's own `security` is shown.
 */
function security(spec: ParsedSpec, op: Json, resolver: RefResolver, inherit: boolean): ApiSecurity[] {
  const reqs = Array.isArray(op['security']) ? op['security'] : inherit && Array.isArray(spec.doc['security']) ? spec.doc['security'] : [];
  const components = isObj(spec.doc['components']) ? spec.doc['components'] : {};
  const schemes = isObj(components['securitySchemes']) ? components['securitySchemes'] : {};
  const out: ApiSecurity[] = [];
  for (const req of reqs) {
    if (!isObj(req)) continue;
    // `{}` among the alternatives: credentials are optional (the page and playground say so).
    if (Object.keys(req).length === 0) {
      out.push({ schemes: [] });
      continue;
    }
    const alt: ApiSecurity = { schemes: [] };
    for (const [name, scopes] of Object.entries(req)) {
      const s = resolver.resolve(schemes[name], spec.file).node;
      if (!isObj(s)) {
        // A requirement naming a scheme the document lacks (Modulr's `HMAC`): JSON Schema cannot see it.
        resolver.warnOnce('openapi-security', `scheme:${spec.file}:${name}`, `${spec.file} requires security scheme "${name}", which components.securitySchemes does not define; its pages show the other credentials only`, spec.file);
        continue;
      }
      const type = s['type'];
      const scheme = str(s['scheme'])?.toLowerCase();
      const kind = type === 'http' ? (scheme === 'bearer' ? 'bearer' : scheme === 'basic' ? 'basic' : 'http') : type === 'apiKey' || type === 'oauth2' || type === 'openIdConnect' || type === 'mutualTLS' ? type : undefined;
      if (!kind) continue;
      const entry: ApiSecurity['schemes'][number] = { name, kind };
      if (type === 'apiKey') {
        const where = s['in'];
        if (where === 'header' || where === 'query' || where === 'cookie') entry.in = where;
        const param = str(s['name']);
        if (param) entry.param = param;
      }
      if (scheme) entry.scheme = scheme;
      const bearerFormat = str(s['bearerFormat']);
      if (bearerFormat) entry.bearerFormat = bearerFormat;
      const description = str(s['description']);
      if (description) entry.description = description;
      const prefill = str(s['x-default']);
      if (prefill && (kind === 'apiKey' || kind === 'bearer')) entry.default = prefill;
      const list = Array.isArray(scopes) ? scopes.filter((x): x is string => typeof x === 'string') : [];
      if (list.length > 0) entry.scopes = list;
      alt.schemes.push(entry);
    }
    if (alt.schemes.length > 0) out.push(alt);
  }
  return out.some((alt) => alt.schemes.length > 0) ? out : [];
}

/**
 * `x-codeSamples` as written, each sample possibly a `$ref` to a file of its own (DigitalOcean's
 * split spec: `- $ref: 'examples/curl/get_droplet.yml'`, relative to the operation's file).
 */
function codeSamples(op: Json, from: string, resolver: RefResolver): ApiOperation['codeSamples'] {
  const raw = op['x-codeSamples'] ?? op['x-code-samples'];
  if (!Array.isArray(raw)) return undefined;
  const out = raw.flatMap((item) => {
    const s = isObj(item) && typeof item['$ref'] === 'string' ? resolver.resolve(item, from).node : item;
    if (!isObj(s) || typeof s['source'] !== 'string') return [];
    const label = str(s['label']);
    return [{ lang: str(s['lang']) ?? 'text', source: s['source'], ...(label ? { label } : {}) }];
  });
  return out.length > 0 ? out : undefined;
}

export function operationTitle(entry: Pick<OperationEntry, 'summary' | 'method' | 'path'>): string {
  return entry.summary ?? `${entry.method} ${entry.path}`;
}

export function compactOperation(spec: ParsedSpec, entry: OperationEntry, resolver: RefResolver, settings: ApiSettings): ApiOperation {
  const ctx: SchemaContext = { resolver, budget: { left: MAX_SCHEMA_NODES }, postKeys: settings.postKeys };
  const { op, pathItem } = entry;
  // Refs in the operation are relative to the path item's file; the page names the spec.
  const file = entry.file;
  const params = new Map<string, ApiParameter>();
  for (const [list, from] of [[pathItem['parameters'], entry.itemFile ?? file], [op['parameters'], file]] as const) {
    for (const raw of Array.isArray(list) ? list : []) {
      const p = parameter(raw, from, ctx);
      if (p) params.set(`${p.in}:${p.name}`, p);
    }
  }
  let listed = serverUrls(op['servers']);
  if (listed.urls.length === 0) listed = serverUrls(pathItem['servers']);
  if (listed.urls.length === 0) listed = serverUrls(spec.doc['servers']);
  const servers = listed.urls.length > 0 ? listed.urls : settings.servers;
  const serverTemplates = listed.templates.some((t) => t !== null) ? listed.templates : undefined;
  const responses = responsesOf(op['responses'], file, ctx);
  const out: ApiOperation = {
    method: entry.method,
    path: entry.path,
    specFile: spec.file,
    title: operationTitle(entry),
    deprecated: entry.deprecated,
    servers,
    ...(serverTemplates ? { serverTemplates } : {}),
    showBaseUrl: settings.fullUrl,
    security: security(spec, op, resolver, entry.method !== 'WEBHOOK'),
    parameters: [...params.values()],
    responses,
    languages: settings.languages,
    requiredOnly: settings.requiredOnly,
    autogenerate: settings.autogenerate,
    expandAll: settings.expandAll,
  };
  if (entry.summary) out.summary = entry.summary;
  const description = proseOf(op['description']);
  if (description) out.description = description;
  const body = requestBodyOf(op['requestBody'], file, ctx);
  if (body) out.requestBody = body;
  const callbacks = callbacksOf(op['callbacks'], file, ctx);
  if (callbacks.length > 0) out.callbacks = callbacks;
  const samples = codeSamples(op, file, resolver);
  if (samples) out.codeSamples = samples;
  const mint = isObj(op['x-mint']) ? op['x-mint'] : {};
  if (typeof mint['content'] === 'string') out.content = mint['content'];
  if (isObj(mint['metadata'])) {
    const meta = jsonValue(mint['metadata']);
    if (isObj(meta)) out.metadata = meta as Record<string, JsonValue>;
  }
  return out;
}
