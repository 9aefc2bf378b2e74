/** Example values made from a schema where the spec gives none, with Mintlify's placeholders. */
import type { ApiSchema, JsonValue } from './types.js';

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
}

export function exampleOf(s: ApiSchema, opts: ExampleOptions, depth = 0): JsonValue {
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (s.enum && s.enum.length > 0) return s.enum[0] as JsonValue;
  if (depth > 12 || s.cut === 'circular') return s.type.endsWith('[]') ? [] : s.type === 'object' || /^[A-Z]/.test(s.type) ? {} : placeholder(s);
  if (s.variants && s.variants[0]) return exampleOf(s.variants[0].schema, opts, depth + 1);
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
