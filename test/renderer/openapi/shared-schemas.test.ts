/**
 * Schemas shared by many operations are compacted once per export and reused (issue 16, "Scale"),
 * but only where walking them again would come out the same: these pages meet the same named
 * schemas under a different cycle, with less of the page's node budget left, and deeper, and
 * must show what each page alone would show.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRenderPool, exportSite, type ExportResult, type RenderPool } from '../../../renderer/index.js';
import { tempSite } from '../load/site-fixtures.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const op = (summary: string, parts: { body?: unknown; response?: unknown }) => ({
  summary,
  ...(parts.body ? { requestBody: json(parts.body) } : {}),
  responses: { '200': { description: 'OK', ...(parts.response ? json(parts.response) : {}) } },
});

// Big: 40 fields of Mid, each of 40 strings: 1 + 40 × 41 = 1,641 nodes, so two of them pass the
// page's budget of 3,000. D0 → D1 → … → D20: a chain longer than the 16 levels shown.
const schemas: Record<string, unknown> = {
  Tree: { type: 'object', properties: { label: { type: 'string' }, leaf: ref('Leaf'), next: ref('Tree') } },
  Leaf: { type: 'object', properties: { name: { type: 'string' }, up: ref('Tree') } },
  Mid: { type: 'object', properties: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`q${i}`, { type: 'string' }])) },
  Big: { type: 'object', properties: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p${i}`, ref('Mid')])) },
};
for (let k = 0; k < 20; k++) schemas[`D${k}`] = { type: 'object', properties: { [`f${k}`]: ref(`D${k + 1}`) } };
schemas['D20'] = { type: 'object', properties: { end: { type: 'string' } } };

// Compacted in this order: each later operation meets schemas an earlier one already compacted.
const spec = {
  openapi: '3.1.0',
  info: { title: 'Shared', version: '1' },
  paths: {
    '/leaves': { post: op('Make leaf', { body: ref('Leaf') }) },
    '/trees': { post: op('Make tree', { body: ref('Tree') }) },
    '/big': { post: op('Big twice', { body: ref('Big'), response: ref('Big') }) },
    '/big-again': { get: op('Big once', { response: ref('Big') }) },
    '/mid': { get: op('Middle of the chain', { response: ref('D10') }) },
    '/deep': { get: op('Whole chain', { response: ref('D0') }) },
  },
  components: { schemas },
};

let pool: RenderPool;
let result: ExportResult;

beforeAll(async () => {
  pool = createRenderPool({ threads: 1 });
  const docs = { name: 'Shared', theme: 'mint', navigation: { tabs: [{ tab: 'API', openapi: 'openapi.json' }] } };
  result = await exportSite({ sourceDir: tempSite({ 'docs.json': JSON.stringify(docs), 'openapi.json': JSON.stringify(spec) }), pool });
}, 60_000);
afterAll(async () => {
  await pool.close();
});

const html = (slug: string): string => {
  const bytes = result.files.get(`api-reference/${slug}/index.html`);
  if (!bytes) throw new Error(`no page ${slug}`);
  return new TextDecoder().decode(bytes);
};
const fieldCount = (page: string, name: string): number => page.split(`<code class="c-field__name">${name}</code>`).length - 1;

describe('schemas shared between operations', () => {
  it('cuts a cycle where the page meets it, whichever operation compacted the schema first', () => {
    const leaf = html('make-leaf');
    // Leaf → up: Tree → leaf: back to Leaf.
    expect(leaf).toMatch(/Refers back to <code>Leaf<\/code>/);
    const tree = html('make-tree');
    // Tree → leaf: Leaf → up: back to Tree (not Leaf's fields as the first page showed them).
    expect(tree).toMatch(/Refers back to <code>Tree<\/code>/);
    expect(tree).not.toMatch(/Refers back to <code>Leaf<\/code>/);
    expect(fieldCount(tree, 'label')).toBe(1);
  });

  it('keeps the node budget per page: a schema shown in full on one page is cut where the page has used its budget', () => {
    const twice = html('big-twice');
    // The body shows all 40 × 40 fields; the response only what the 3,000 nodes leave: p0–p32
    // whole, p33's fields listed (the last 36 without their own details), p34–p39 without fields.
    expect(fieldCount(twice, 'p39')).toBe(2);
    expect(fieldCount(twice, 'q39')).toBe(40 + 34);
    expect(fieldCount(html('big-once'), 'q39')).toBe(40);
  });

  it('keeps the depth limit: a schema shown whole at the top is cut when met 10 levels down', () => {
    const mid = html('middle-of-the-chain');
    expect(fieldCount(mid, 'f19')).toBe(1);
    expect(fieldCount(mid, 'end')).toBe(1);
    const deep = html('whole-chain');
    expect(fieldCount(deep, 'f16')).toBe(1);
    expect(fieldCount(deep, 'f17')).toBe(0);
    expect(fieldCount(deep, 'end')).toBe(0);
  });
});
