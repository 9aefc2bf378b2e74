/** Example values made from a schema where the spec gives none, with Mintlify's placeholders. */
import type { ApiSchema, JsonValue } from './types.js';
import { xmlExample } from './xml-example.js';

const FORMAT_EXAMPLES: Record<string, JsonValue> = {
  'date-time': '2023-11-07T05:31:56Z',
  date: '2023-12-25',
  time: '05:31:56Z',
  uuid: '3c90c3cc-0d44-4b50-8888-8dd25736052a',
  email: 'jsmith@example.com',
  uri: 'https://example.com',
  url: 'https://example.com',
  hostname: 'example.com',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  binary: '<binary>',
};

export interface ExampleOptions {
  /** Request bodies leave out readOnly fields, responses writeOnly ones. */
  direction: 'request' | 'response';
  requiredOnly?: boolean;
  /** The playground with `api.examples.prefill`: `x-default` values first. */
  prefill?: boolean;
}

export function exampleOf(s: ApiSchema, opts: ExampleOptions, depth = 0): JsonValue {
  if (opts.prefill && s.xDefault !== undefined) return s.xDefault;
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (s.enum && s.enum.length > 0) return s.enum[0] as JsonValue;
  if (depth > 12 || s.cut === 'circular') return s.type.endsWith('[]') ? [] : s.type === 'object' || /^[A-Z]/.test(s.type) ? {} : placeholder(s);
  if (s.variants && s.variants[0]) return exampleOf(s.variants[0].schema, opts, depth + 1);
  if (s.prefixItems) return s.prefixItems.map((p) => exampleOf(p, opts, depth + 1));
  if (s.items) return [exampleOf(s.items, opts, depth + 1)];
  if (s.properties) {
    const out: Record<string, JsonValue> = {};
    for (const p of s.properties) {
      if (opts.direction === 'request' && p.schema.readOnly) continue;
      if (opts.direction === 'response' && p.schema.writeOnly) continue;
      if (opts.requiredOnly && !p.required) continue;
      out[p.name === '{key}' ? 'key' : p.name] = exampleOf(p.schema, opts, depth + 1);
    }
    return out;
  }
  return placeholder(s);
}

function placeholder(s: ApiSchema): JsonValue {
  if (s.format && FORMAT_EXAMPLES[s.format] !== undefined) return FORMAT_EXAMPLES[s.format] as JsonValue;
  const t = s.type.split(' | ')[0];
  if (t === 'integer' || t === 'number') return 123;
  if (t === 'boolean') return true;
  if (t === 'null') return null;
  if (t === 'object') return {};
  if (t === 'any') return '<any>';
  return `<${t ?? 'string'}>`;
}

/** A binary field of a multipart form (`format: binary`, or 3.1's non-text `contentMediaType`): a file. */
export function isFile(s: ApiSchema | undefined): boolean {
  if (!s) return false;
  return s.format === 'binary' || (s.contentMediaType !== undefined && !/json|xml|^text\//i.test(s.contentMediaType));
}

/** The parsed value of a string holding a JSON object or array, else undefined. */
function parsedJson(value: string): JsonValue | undefined {
  if (!looksLikeJson(value)) return undefined;
  try {
    return JSON.parse(value) as JsonValue;
  } catch {
    // Hand-written examples often keep a trailing comma (`"url": "apple",\n }`, Apidog exports).
    try {
      return JSON.parse(withoutTrailingCommas(value)) as JsonValue;
    } catch {
      return undefined;
    }
  }
}

const looksLikeJson = (value: string): boolean => /^\s*[[{]/.test(value);

/** `text` without the commas that close nothing but a `}` or `]` (outside strings). */
function withoutTrailingCommas(text: string): string {
  let out = '';
  let inString = false;
  const closing = /\s*[}\]]/y;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    if (c === ',') {
      closing.lastIndex = i + 1;
      if (closing.test(text)) continue;
    }
    out += c;
  }
  return out;
}

/**
 * The media type a request or response example is written in: the first JSON one when there are
 * several (Petstore lists `application/xml` first; most readers' clients send JSON), else the first.
 */
export function exampleMedia<M extends { type: string }>(media: readonly M[] | undefined): M | undefined {
  // `application/json` itself first: ASP.NET's Swashbuckle lists `application/json-patch+json` before it.
  return media?.find((m) => /^application\/json\s*(;|$)/i.test(m.type)) ?? media?.find((m) => /json/i.test(m.type) && !m.type.includes('*')) ?? media?.[0];
}

/**
 * An example as the code a reader sees for its media type: an XML document for XML media types
 * (given the schema), else JSON. Specs often give a JSON example as a string (`example: '{"id": 1}'`,
 * OAI's api-with-examples, Train Travel's JSON Lines stream): that string was JSON-encoded again
 * (`"{\"id\": 1}"`). A string holding a JSON object or array is shown as that JSON, lines of JSON
 * (`jsonl`, `ndjson`, `json-seq`) as written; a plain string under a JSON type stays a JSON string
 * (`"OK"`).
 */
export function exampleCode(value: JsonValue, mediaType: string, indent = 2, schema?: ApiSchema): string {
  if (typeof value !== 'string' && /xml/i.test(mediaType)) return xmlExample(value, schema);
  if (typeof value !== 'string') return JSON.stringify(value, null, indent);
  if (!/json/i.test(mediaType) || /jsonl|ndjson|json-seq/i.test(mediaType)) return value;
  const parsed = parsedJson(value);
  // Text that means to be JSON but does not parse is shown as written, not as a JSON string of itself.
  if (parsed === undefined && looksLikeJson(value)) return value;
  return JSON.stringify(parsed ?? value, null, indent);
}
