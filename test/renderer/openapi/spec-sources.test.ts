/** Specs that cannot be read offline or from inside the repository are warnings, never reads. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRenderPool, exportSite, type ExportResult, type RenderPool } from '../../../renderer/index.js';
import { tempSite } from '../load/site-fixtures.js';

let pool: RenderPool;
let result: ExportResult;

const spec = (extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ openapi: '3.1.0', info: { title: 'T', version: '1' }, paths: { '/a': { get: { summary: 'A', responses: { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: 'https://schemas.test/a.json' } } } } } } } }, ...extra });

beforeAll(async () => {
  pool = createRenderPool({ threads: 1 });
  const mint = {
    name: 'Legacy',
    openapi: ['https://api.test/openapi.json', 'specs/legacy.json'],
    api: { baseUrl: 'https://legacy.test' },
    navigation: [{ group: 'Start', pages: ['index', 'ref/a', 'ref/outside'] }],
  };
  result = await exportSite({
    pool,
    sourceDir: tempSite({
      'mint.json': JSON.stringify(mint),
      'index.mdx': '---\ntitle: Home\n---\nHi.\n',
      'specs/legacy.json': spec(),
      'ref/a.mdx': '---\ntitle: A\nopenapi: GET /a\n---\n',
      'ref/outside.mdx': '---\ntitle: Out\nopenapi: ../../etc/spec.json GET /a\n---\n',
    }),
  });
}, 60_000);
afterAll(async () => {
  await pool.close();
});

describe('spec sources', () => {
  it('reads mint.json `openapi` and `api.baseUrl`: a bare operation is found in the named spec, shown against the base URL', () => {
    const page = new TextDecoder().decode(result.files.get('ref/a/index.html'));
    expect(page).toContain('c-field--response');
    expect(page).toContain('https://legacy.test/a');
  });

  it('warns about a spec at a URL, a spec outside the repository and a $ref to a URL, reading none of them', () => {
    const messages = result.warnings.filter((w) => w.code.startsWith('openapi-')).map((w) => `${w.code}: ${w.message}`);
    expect(messages.some((m) => m.startsWith('openapi-remote:') && m.includes('https://api.test/openapi.json'))).toBe(true);
    expect(messages.some((m) => m.startsWith('openapi-missing:') && m.includes('outside the repository'))).toBe(true);
    expect(messages.some((m) => m.startsWith('openapi-ref:') && m.includes('https://schemas.test/a.json'))).toBe(true);
  });
});
