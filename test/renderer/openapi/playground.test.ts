/**
 * The playground's part of exported API pages (issue 16 part 3): which pages get one and in which
 * mode, what request it describes, and that only those pages load its script. The browser side is
 * test/e2e/playground.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRenderPool, exportSite, type ExportResult, type RenderPool } from '../../../renderer/index.js';
import type { PlaygroundRequest } from '../../../renderer/openapi/playground.js';
import { tempSite } from '../load/site-fixtures.js';
import { PETS_31, yaml } from './fixtures.js';

let pool: RenderPool;
const results: Record<string, ExportResult> = {};

const site = (api: Record<string, unknown>, extra: Record<string, string> = {}): Record<string, string> => ({
  'docs.json': JSON.stringify({ name: 'Pets', theme: 'mint', api, navigation: { tabs: [{ tab: 'Guides', pages: ['index', 'manual/create', 'manual/quiet', 'manual/full'] }, { tab: 'API', openapi: 'openapi.yaml' }] } }),
  'index.mdx': '---\ntitle: Home\n---\nWelcome.\n',
  'openapi.yaml': yaml(PETS_31),
  'schemas/new-pet.yaml': 'type: object\nrequired: [name]\nproperties:\n  name: {type: string, example: Rex}\n',
  'manual/create.mdx': '---\ntitle: Create user\napi: POST /v1/users/{team}\n---\n<ParamField body="email" type="string" required>Email</ParamField>\n',
  'manual/quiet.mdx': '---\ntitle: Quiet\napi: GET /v1/quiet\nplayground: none\n---\nNo playground here.\n',
  'manual/full.mdx': '---\ntitle: Full\napi: GET https://other.example.test/v1/x\n---\n',
  ...extra,
});

beforeAll(async () => {
  pool = createRenderPool({ threads: 2 });
  results.interactive = await exportSite({
    sourceDir: tempSite(site({ mdx: { server: 'https://api.acme.test', auth: { method: 'key', name: 'x-api-key' } }, examples: { prefill: true }, playground: { proxy: false, credentials: true } })),
    pool,
  });
  results.simple = await exportSite({ sourceDir: tempSite(site({ playground: { display: 'simple' } })), pool });
  results.none = await exportSite({ sourceDir: tempSite(site({ playground: { display: 'none' } })), pool });
  results.auth = await exportSite({ sourceDir: tempSite(site({ playground: { display: 'auth' } })), pool });
}, 90_000);
afterAll(async () => {
  await pool.close();
});

const html = (r: ExportResult, slug: string): string => {
  const bytes = r.files.get(slug === '' ? 'index.html' : `${slug}/index.html`);
  if (!bytes) throw new Error(`no page ${slug}`);
  return new TextDecoder().decode(bytes);
};

function playground(page: string): { mode: string; request: PlaygroundRequest } | undefined {
  const m = /<div class="c-playground" data-playground="(\w+)" data-request="([^"]*)"><\/div>/.exec(page);
  if (!m) return undefined;
  const json = m[2]!.replace(/&quot;/g, '"').replace(/&#39;|&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return { mode: m[1]!, request: JSON.parse(json) as PlaygroundRequest };
}

const loadsPlayground = (page: string): boolean => /<script[^>]+playground\.[0-9a-f]+\.js/.test(page) && /<link[^>]+playground\.[0-9a-f]+\.css/.test(page);

describe('the playground on API pages', () => {
  it('describes a generated operation: servers, parameters, auth alternatives, body prefilled from the schema', () => {
    const page = html(results.interactive!, 'api-reference/admin/admin-keys');
    const pg = playground(page)!;
    expect(pg.mode).toBe('interactive');
    expect(pg.request.method).toBe('GET');
    expect(pg.request.path).toBe('/admin/keys');
    expect(pg.request.servers).toEqual(['https://eu.pets.test/v1']);
    expect(pg.request.security.map((alt) => alt.map((s) => `${s.kind}${s.in ? `:${s.in}:${s.param}` : ''}`))).toEqual([['basic'], ['apiKey:header:X-Api-Key'], ['apiKey:query:api_key'], ['apiKey:cookie:sid'], ['oauth2']]);
    expect(pg.request.proxy).toBe(false);
    expect(pg.request.credentials).toBe(true);

    const list = playground(html(results.interactive!, 'api-reference/pets/list-pets'))!.request;
    expect(list.params).toEqual([
      { name: 'limit', in: 'query', required: false, type: 'integer', value: '20' },
      { name: 'X-Trace', in: 'header', required: false, type: 'string', value: '<string>' },
      { name: 'session', in: 'cookie', required: false, type: 'string', value: '<string>' },
    ]);
    const create = playground(html(results.interactive!, 'api-reference/pets/create-pet'))!.request;
    expect(create.body?.type).toBe('application/json');
    expect(JSON.parse(create.body?.value ?? '')).toMatchObject({ name: 'Rex' });
    expect(loadsPlayground(page)).toBe(true);
  });

  it('offers no playground on webhook pages nor pages without an operation, and loads no script there', () => {
    const webhook = html(results.interactive!, 'api-reference/pet_adopted');
    expect(playground(webhook)).toBeUndefined();
    expect(loadsPlayground(webhook)).toBe(false);
    expect(loadsPlayground(html(results.interactive!, ''))).toBe(false);
  });

  it('gives hand-written api: pages a playground built from their ParamFields, with api.mdx.server and api.mdx.auth', () => {
    const pg = playground(html(results.interactive!, 'manual/create'))!;
    expect(pg.request).toMatchObject({ method: 'POST', path: '/v1/users/{team}', servers: ['https://api.acme.test'], params: [], fromPage: true, security: [[{ kind: 'apiKey', in: 'header', param: 'x-api-key' }]] });
    // A full URL in `api:` ignores api.mdx.server, as Mintlify.
    expect(playground(html(results.interactive!, 'manual/full'))!.request.servers).toEqual([]);
    // Frontmatter `playground: none` wins over the site setting.
    const quiet = html(results.interactive!, 'manual/quiet');
    expect(playground(quiet)).toBeUndefined();
    expect(loadsPlayground(quiet)).toBe(false);
  });

  it('honours api.playground.display: simple (copyable endpoint), none (nothing), auth (simple, with a warning)', () => {
    expect(playground(html(results.simple!, 'api-reference/pets/list-pets'))!.mode).toBe('simple');
    const none = html(results.none!, 'api-reference/pets/list-pets');
    expect(playground(none)).toBeUndefined();
    expect(loadsPlayground(none)).toBe(false);
    expect(playground(html(results.auth!, 'api-reference/pets/list-pets'))!.mode).toBe('simple');
    expect(results.auth!.warnings.filter((w) => w.code === 'openapi-playground-auth')).toHaveLength(1);
    expect(results.interactive!.warnings.filter((w) => w.code === 'openapi-playground-auth')).toHaveLength(0);
  });

  it('keeps the request description out of the search index and the page text', () => {
    const page = html(results.interactive!, 'api-reference/pets/list-pets');
    const visible = page.replace(/<[^>]+>/g, ' ');
    expect(visible).not.toContain('"params"');
  });
});
