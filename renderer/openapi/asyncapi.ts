/**
 * AsyncAPI documents (2.x and 3.0) for the plan: read through the confined repository reader,
 * parsed as JSON or YAML, checked against the official JSON Schema of their version
 * (`@asyncapi/specs`, the schemas `@asyncapi/parser` itself validates with), and boiled down per
 * channel to the compact data a worker renders a channel page from (messages, their payload and
 * header schemas, examples, parameters, servers). `$ref`s resolve with the OpenAPI side's resolver:
 * pointers and repository files only, never a URL. Nothing connects anywhere.
 */
import asyncSpecs from '@asyncapi/specs';
import AjvModule from 'ajv';
import { readRepoText } from '../repo-files.js';
import type { BuildWarning } from '../types.js';
import { MAX_SPEC_BYTES, parseSpecText, type Json } from './load-spec.js';
import type { ApiSettings } from './operation.js';
import type { RefResolver } from './resolve.js';
import { fillServer } from './server-variables.js';
import { compactSchema, jsonValue, MAX_SCHEMA_NODES, type SchemaContext } from './schema.js';
import type { ApiChannelPage, ApiMessage, ApiParameter, ApiSchema, JsonValue } from './types.js';
import { avroToJsonSchema, isAvroFormat } from './avro.js';

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
const LISTED_ERRORS = 3;

export interface ParsedAsyncApi {
  file: string;
  doc: Json;
  /** `2.6.0`, `3.0.0`. */
  version: string;
  major: 2 | 3;
}

type Validate = ((doc: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null };
const validators = new Map<string, Validate | null>();

/** The official schema of a version (nearest known minor), compiled once per process (~1 s). */
function validatorFor(version: string): { check: Validate; key: string } | undefined {
  const all = (asyncSpecs as unknown as { schemas: Record<string, Json> }).schemas;
  const key = all[version] ? version : Object.keys(all).filter((k) => k.split('.')[0] === version.split('.')[0]).sort().pop();
  if (!key) return undefined;
  let v = validators.get(key);
  if (v === undefined) {
    try {
      // The bundled schemas carry their own copy of the draft-07 meta-schema: ajv's must stay out.
      const Ajv = AjvModule as unknown as new (o: object) => { compile(s: unknown): Validate };
      v = new Ajv({ strict: false, meta: false, validateSchema: false, validateFormats: false }).compile(all[key]);
    } catch {
      v = null;
    }
    validators.set(key, v);
  }
  return v ? { check: v, key } : undefined;
}

export function loadAsyncApi(repoRoot: string, file: string, warnings: BuildWarning[]): ParsedAsyncApi | undefined {
  let text: string;
  try {
    text = readRepoText(repoRoot, file, MAX_SPEC_BYTES);
  } catch (err) {
    warnings.push({ code: 'asyncapi-missing', message: `AsyncAPI file ${file} cannot be read: ${err instanceof Error ? err.message : String(err)}`, file });
    return undefined;
  }
  const parsed = parseSpecText(text);
  const version = 'error' in parsed || !isObj(parsed.value) ? undefined : str(parsed.value['asyncapi']);
  if ('error' in parsed || !isObj(parsed.value) || !version || !/^[23]\./.test(version)) {
    warnings.push({ code: 'asyncapi-invalid', message: `${file} is not an AsyncAPI 2.x or 3.0 document (JSON or YAML with "asyncapi: 3.0.0"); its channel pages are not built`, file });
    return undefined;
  }
  const doc = parsed.value;
  const validator = validatorFor(version);
  // A minor the bundled schemas do not have yet (3.1 while they stop at 3.0.0): checked against
  // the newest of its major, whose schema only accepts its own version number.
  if (validator && !validator.check(validator.key === version ? doc : { ...doc, asyncapi: validator.key })) {
    const errors = validator.check.errors ?? [];
    const listed = errors.slice(0, LISTED_ERRORS).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
    const more = errors.length > LISTED_ERRORS ? ` (and ${errors.length - LISTED_ERRORS} more)` : '';
    const against = validator.key === version ? version : `${validator.key} (newest known)`;
    warnings.push({ code: 'asyncapi-schema', message: `${file} does not follow the AsyncAPI ${against} schema: ${listed.join('; ')}${more}; pages are built from it as far as it can be read`, file });
  }
  return { file, doc, version, major: version.startsWith('2.') ? 2 : 3 };
}

/** Channel ids in document order. */
export function channelIds(spec: ParsedAsyncApi): string[] {
  return isObj(spec.doc['channels']) ? Object.keys(spec.doc['channels']) : [];
}

export function channelTitle(spec: ParsedAsyncApi, id: string, resolver: RefResolver): string {
  const ch = resolver.resolve((spec.doc['channels'] as Json)[id], spec.file).node;
  return (isObj(ch) ? (str(ch['title']) ?? str(ch['summary'])) : undefined) ?? id;
}

function serverUrls(spec: ParsedAsyncApi, resolver: RefResolver): { urls: string[]; protocol?: string } {
  const servers = isObj(spec.doc['servers']) ? spec.doc['servers'] : {};
  const urls: string[] = [];
  let protocol: string | undefined;
  for (const raw of Object.values(servers)) {
    const s = resolver.resolve(raw, spec.file).node;
    if (!isObj(s)) continue;
    const proto = str(s['protocol']);
    protocol ??= proto;
    const fill = (t: string): string => fillServer(t, s['variables']).url;
    if (spec.major === 3 && str(s['host'])) urls.push(fill(`${proto ? `${proto}://` : ''}${s['host'] as string}${str(s['pathname']) ?? ''}`));
    else if (str(s['url'])) {
      const url = fill(s['url'] as string);
      urls.push(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || !proto ? url : `${proto}://${url}`);
    }
  }
  return protocol ? { urls, protocol } : { urls };
}

/**
 * A message's payload schema: AsyncAPI 3's multi-format wrapper `{schemaFormat, schema}` unwrapped,
 * and an Avro schema (3's wrapper, or 2's message-level `schemaFormat`) read as JSON Schema.
 */
function payloadOf(node: unknown, file: string, resolver: RefResolver, messageFormat?: unknown): { raw: unknown; file: string } | undefined {
  if (node === undefined) return undefined;
  const r = resolver.resolve(node, file);
  if (isObj(r.node) && r.node['schema'] !== undefined && (r.node['schemaFormat'] !== undefined || (r.node['type'] === undefined && r.node['properties'] === undefined))) {
    if (isAvroFormat(r.node['schemaFormat'])) return { raw: avroToJsonSchema(resolver.resolve(r.node['schema'], r.file).node), file: r.file };
    return { raw: r.node['schema'], file: r.file };
  }
  if (isAvroFormat(messageFormat)) return { raw: avroToJsonSchema(r.node), file: r.file };
  return { raw: node, file };
}

/** `chatMessage` for a `$ref` to `#/components/messages/chatMessage` (or a channel's `messages/chatMessage`). */
function messageKey(raw: unknown): string | undefined {
  const ref = isObj(raw) ? raw['$ref'] : undefined;
  const m = typeof ref === 'string' ? /\/messages\/([^/]+)$/.exec(ref) : null;
  return m ? m[1]!.replace(/~1/g, '/').replace(/~0/g, '~') : undefined;
}

function message(name: string, raw: unknown, file: string, ctx: SchemaContext): ApiMessage[] {
  const r = ctx.resolver.resolve(raw, file);
  if (!isObj(r.node)) return [];
  // AsyncAPI 2: `message: {oneOf: [...]}` lists several.
  if (Array.isArray(r.node['oneOf'])) return r.node['oneOf'].flatMap((m, i) => message(`${name} ${i + 1}`, m, r.file, ctx));
  const m = r.node;
  const payload = payloadOf(m['payload'], r.file, ctx.resolver, m['schemaFormat']);
  const headers = payloadOf(m['headers'], r.file, ctx.resolver);
  const examples: ApiMessage['examples'] = [];
  if (Array.isArray(m['examples'])) {
    m['examples'].forEach((ex, i) => {
      const e = ctx.resolver.resolve(ex, r.file).node;
      const value = isObj(e) ? jsonValue(e['payload']) : undefined;
      if (value !== undefined) examples.push({ name: (isObj(e) ? (str(e['name']) ?? str(e['summary'])) : undefined) ?? `Example ${i + 1}`, value });
    });
  }
  const schema = (p: { raw: unknown; file: string } | undefined): ApiSchema | undefined => (p ? compactSchema(p.raw, p.file, ctx) : undefined);
  // Untitled messages are named by the message they point at (`chatMessage`), not by a number.
  const pointed = messageKey(raw);
  const out: ApiMessage = { name: str(m['name']) ?? pointed ?? name, title: str(m['title']) ?? str(m['name']) ?? pointed ?? name, examples };
  const description = str(m['description']) ?? str(m['summary']);
  if (description) out.description = description;
  const contentType = str(m['contentType']);
  if (contentType) out.contentType = contentType;
  const p = schema(payload);
  if (p) out.payload = p;
  const h = schema(headers);
  if (h) out.headers = h;
  return [out];
}

/** The compact data of one channel page. */
export function compactChannel(spec: ParsedAsyncApi, id: string, resolver: RefResolver, settings: ApiSettings): ApiChannelPage {
  const ctx: SchemaContext = { resolver, budget: { left: MAX_SCHEMA_NODES }, postKeys: settings.postKeys };
  const channels = spec.doc['channels'] as Json;
  const rc = resolver.resolve(channels[id], spec.file);
  const ch = isObj(rc.node) ? rc.node : {};
  const { urls, protocol } = serverUrls(spec, resolver);
  const parameters: ApiParameter[] = [];
  if (isObj(ch['parameters'])) {
    for (const [name, raw] of Object.entries(ch['parameters'])) {
      const p = resolver.resolve(raw, rc.file).node;
      if (!isObj(p)) continue;
      // 2.x parameters carry a schema; 3.0 ones enum/default/examples directly.
      const schema = compactSchema(isObj(p['schema']) ? p['schema'] : { type: 'string', ...(Array.isArray(p['enum']) ? { enum: p['enum'] } : {}), ...(p['default'] !== undefined ? { default: p['default'] } : {}) }, rc.file, ctx);
      const example = Array.isArray(p['examples']) ? jsonValue(p['examples'][0]) : undefined;
      parameters.push({ name, in: 'path', required: true, deprecated: false, ...(str(p['description']) ? { description: p['description'] as string } : {}), schema, ...(example !== undefined ? { example } : {}) });
    }
  }
  const operations: ApiChannelPage['operations'] = [];
  const covered = new Set<unknown>();
  const pushOp = (action: 'send' | 'receive', opId: string, op: Json, msgs: unknown[], file: string) => {
    const messages = msgs.flatMap((raw, i) => {
      covered.add(resolver.resolve(raw, file).node);
      return message(`${opId} message ${i + 1}`, raw, file, ctx);
    });
    const entry: ApiChannelPage['operations'][number] = { action, id: opId, messages };
    const title = str(op['title']) ?? str(op['summary']);
    if (title) entry.title = title;
    if (str(op['description'])) entry.description = op['description'] as string;
    operations.push(entry);
  };
  if (spec.major === 2) {
    // 2.x: `subscribe` is what the application sends; `publish` what it receives.
    for (const [key, action] of [['subscribe', 'send'], ['publish', 'receive']] as const) {
      const op = ch[key];
      if (isObj(op) && op['message'] !== undefined) pushOp(action, str(op['operationId']) ?? key, op, [op['message']], rc.file);
    }
  } else if (isObj(spec.doc['operations'])) {
    for (const [opId, raw] of Object.entries(spec.doc['operations'])) {
      const r = resolver.resolve(raw, spec.file);
      if (!isObj(r.node) || (r.node['action'] !== 'send' && r.node['action'] !== 'receive')) continue;
      if (resolver.resolve(r.node['channel'], r.file).node !== rc.node) continue;
      const msgs = Array.isArray(r.node['messages']) && r.node['messages'].length > 0 ? r.node['messages'] : isObj(ch['messages']) ? Object.values(ch['messages']) : [];
      pushOp(r.node['action'], opId, r.node, msgs, r.file);
    }
  }
  // Messages of the channel no operation names (3.0), shown on their own.
  const messages: ApiMessage[] = [];
  if (spec.major === 3 && isObj(ch['messages'])) {
    for (const [name, raw] of Object.entries(ch['messages'])) {
      if (!covered.has(resolver.resolve(raw, rc.file).node)) messages.push(...message(name, raw, rc.file, ctx));
    }
  }
  const address = spec.major === 3 ? (ch['address'] === null ? id : (str(ch['address']) ?? id)) : id;
  const page: ApiChannelPage = { id, address, title: str(ch['title']) ?? str(ch['summary']) ?? id, specFile: spec.file, servers: urls, parameters, operations, messages, expandAll: settings.expandAll };
  if (protocol) page.protocol = protocol;
  const description = str(ch['description']);
  if (description) page.description = description;
  return page;
}

export type { JsonValue };
