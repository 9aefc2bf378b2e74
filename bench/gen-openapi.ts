import fs from 'node:fs';
import path from 'node:path';

/**
 * Generate a docs site whose API tab is one OpenAPI 3.1 spec of `operations` operations (about
 * 5 KB each, so 1,000 make ~5 MB): 20 tags, shared component schemas with a cycle, per-operation
 * parameters, request bodies, two responses with examples. Deterministic.
 *
 *   node --import tsx bench/gen-openapi.ts <dir> <operations>
 */
const WORDS = 'account invoice order product customer payment refund subscription webhook event meter benefit license seat checkout'.split(' ');

export function generateOpenApiSite(dir: string, operations: number): { specBytes: number } {
  fs.mkdirSync(dir, { recursive: true });
  const schemas: Record<string, unknown> = {
    Address: { type: 'object', properties: { line1: { type: 'string' }, city: { type: 'string' }, country: { type: 'string', enum: ['US', 'FR', 'DE', 'JP'] } }, required: ['country'] },
    Customer: {
      type: 'object',
      required: ['id', 'email'],
      properties: {
        id: { type: 'string', format: 'uuid', readOnly: true },
        email: { type: 'string', format: 'email', description: 'Where receipts go.' },
        address: { $ref: '#/components/schemas/Address' },
        parent: { anyOf: [{ $ref: '#/components/schemas/Customer' }, { type: 'null' }] },
        metadata: { type: 'object', additionalProperties: { type: 'string', maxLength: 500 } },
      },
    },
    Error: { type: 'object', properties: { type: { type: 'string' }, detail: { type: 'string' } } },
  };
  const paths: Record<string, Record<string, unknown>> = {};
  for (let i = 0; i < operations; i++) {
    const noun = WORDS[i % WORDS.length] as string;
    const name = `${noun.charAt(0).toUpperCase()}${noun.slice(1)}${i}`;
    schemas[name] = {
      type: 'object',
      description: `A ${noun} record number ${i}, with the fields every ${noun} carries and a few of its own. `.repeat(14),
      required: ['id', 'amount'],
      properties: {
        id: { type: 'string', format: 'uuid' },
        amount: { type: 'integer', minimum: 0, maximum: 100000000, description: `Amount of the ${noun} in cents.` },
        currency: { type: 'string', enum: ['usd', 'eur', 'jpy'], default: 'usd' },
        customer: { $ref: '#/components/schemas/Customer' },
        created_at: { type: 'string', format: 'date-time' },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 20 },
        status: { oneOf: [{ title: 'Open', type: 'string', const: 'open' }, { title: 'Closed', type: 'object', properties: { reason: { type: 'string' } } }] },
        [`extra_${i}`]: { type: 'string', description: `A field only ${noun} ${i} has; it describes itself at some length so the spec weighs what real ones do.`.repeat(2) },
      },
    };
    const route = `/v1/${noun}s/${i}/{id}`;
    paths[route] = {
      [i % 3 === 0 ? 'post' : i % 3 === 1 ? 'get' : 'patch']: {
        tags: [`${noun}s`],
        summary: `${i % 3 === 0 ? 'Create' : i % 3 === 1 ? 'Get' : 'Update'} ${noun} ${i}`,
        description: `Does what it says to ${noun} ${i}. `.repeat(6),
        operationId: `op${i}`,
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'expand', in: 'query', schema: { type: 'array', items: { type: 'string', enum: ['customer', 'items'] } } },
          { name: 'X-Request-Id', in: 'header', schema: { type: 'string', format: 'uuid' } },
        ],
        ...(i % 3 === 1 ? {} : { requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } } }),
        responses: {
          '200': { description: 'OK', content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` }, example: { id: 'a', amount: i } } } },
          '404': { description: 'Not found', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        },
      },
    };
  }
  const spec = {
    openapi: '3.1.0',
    info: { title: 'Bench API', version: '1.0' },
    servers: [{ url: 'https://api.example.com' }],
    security: [{ bearer: [] }],
    paths,
    components: { schemas, securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  };
  const text = JSON.stringify(spec, null, 2);
  fs.writeFileSync(path.join(dir, 'openapi.json'), text);
  fs.writeFileSync(path.join(dir, 'index.mdx'), '---\ntitle: Bench API\n---\n\nThe API reference is generated from `openapi.json`.\n');
  const docs = { name: 'Bench API', theme: 'mint', colors: { primary: '#0E7C66' }, navigation: { tabs: [{ tab: 'Home', pages: ['index'] }, { tab: 'API reference', openapi: 'openapi.json' }] } };
  fs.writeFileSync(path.join(dir, 'docs.json'), JSON.stringify(docs, null, 2));
  return { specBytes: Buffer.byteLength(text) };
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  const [dir, n] = process.argv.slice(2);
  if (!dir) throw new Error('usage: gen-openapi.ts <dir> <operations>');
  const { specBytes } = generateOpenApiSite(dir, Number(n ?? 1000));
  console.log(`spec: ${(specBytes / 1024 / 1024).toFixed(1)} MB`);
}
