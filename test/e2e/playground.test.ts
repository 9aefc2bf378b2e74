import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSite } from '../../renderer/index.js';
import { DEFAULT_SITE_CSP, withConnectOrigins } from '../../renderer/csp.js';
import { createTestAppliance, TEST_ORG, TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';
import { launchBrowser } from './browser.js';
import { browserSuite, chromium } from './chromium.js';
import { sharedRenderPool } from '../helpers/render-pool.js';

/**
 * The API playground in Chromium: a small spec exported by the real pipeline, served by the
 * appliance's site listener with the operator's playground settings, "Try it" against local test
 * APIs on 127.0.0.1 (one allowed, one not).
 */
interface TestApi {
  origin: string;
  seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

/** An API that lets any page call it (CORS) and echoes what it got. */
async function testApi(): Promise<TestApi> {
  const seen: TestApi['seen'] = [];
  const server = http.createServer((req, res) => {
    const cors = { 'access-control-allow-origin': req.headers.origin ?? '*', 'access-control-allow-headers': 'content-type, x-api-key', 'access-control-allow-methods': 'GET, POST', 'access-control-expose-headers': 'x-echo' };
    if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end();
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      // A multipart or form body is not JSON: echoed as null (the test reads what the API saw instead).
      const created = /^multipart\/|x-www-form-urlencoded/.test(req.headers['content-type'] ?? '') ? null : (JSON.parse(body || 'null') as unknown);
      res.writeHead(201, { ...cors, 'content-type': 'application/json', 'x-echo': 'yes' }).end(JSON.stringify({ created, path: req.url, key: req.headers['x-api-key'] ?? null }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

function writeDocs(dir: string, allowed: string, other: string): void {
  const op = (summary: string, servers?: string) => ({
    tags: ['pets'],
    summary,
    ...(servers ? { servers: [{ url: servers }] } : {}),
    parameters: [
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'verbose', in: 'query', schema: { type: 'boolean' } },
    ],
    requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string', example: 'Rex' } } } } } },
    responses: { '201': { description: 'Created' } },
  });
  const spec = {
    openapi: '3.1.0',
    info: { title: 'Pets', version: '1' },
    // The public host the spec names: never reached; the operator's base URL replaces it.
    servers: [{ url: 'https://api.pets.example.com' }],
    security: [{ key: [] }],
    // Mintlify's x-default: the key field starts with it until the reader types their own.
    components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Api-Key', 'x-default': 'demo-key' } } },
    paths: {
      '/pets/{id}': { post: op('Create pet') },
      '/allowed/{id}': { post: op('Create allowed', allowed) },
      '/other/{id}': { post: op('Create other', other) },
      // Server variables the reader chooses (the port is the test API's, typed in; the version from the enum).
      '/regions/{id}': { post: { ...op('Create regional'), servers: [{ url: 'http://127.0.0.1:{port}/{version}', variables: { port: { default: '9' }, version: { default: 'v1', enum: ['v1', 'v2'] } } }] } },
      // Array and deepObject query parameters and a file upload, sent as the request examples show.
      '/pets/{id}/photos': {
        post: {
          tags: ['pets'],
          summary: 'Add photos',
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'tags', in: 'query', schema: { type: 'array', items: { type: 'string' } }, example: ['a', 'b'] },
            { name: 'filter', in: 'query', style: 'deepObject', schema: { type: 'object', properties: { kind: { type: 'string' } } }, example: { kind: 'cat' } },
            // Spring's Pageable: an exploded form object whose list property repeats its key.
            { name: 'pageable', in: 'query', schema: { type: 'object', properties: { page: { type: 'integer' }, sort: { type: 'array', items: { type: 'string' } } } }, example: { page: 0, sort: ['name', 'id'] } },
          ],
          requestBody: { content: { 'multipart/form-data': { schema: { type: 'object', properties: { photo: { type: 'string', format: 'binary' }, caption: { type: 'string', example: 'Hi' } } } } } },
          responses: { '201': { description: 'Stored' } },
        },
      },
      // A form body whose encoding says deepObject (Stripe's spec): sent with brackets.
      '/pets/{id}/labels': {
        post: {
          tags: ['pets'],
          summary: 'Label pet',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          requestBody: {
            content: {
              'application/x-www-form-urlencoded': {
                encoding: { metadata: { style: 'deepObject', explode: true }, expand: { style: 'deepObject', explode: true } },
                schema: { type: 'object', properties: { name: { type: 'string', example: 'Rex' }, metadata: { type: 'object', additionalProperties: { type: 'string' }, example: { color: 'red' } }, expand: { type: 'array', items: { type: 'string' }, example: ['owner'] } } },
              },
            },
          },
          responses: { '201': { description: 'Stored' } },
        },
      },
    },
  };
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(spec));
  fs.writeFileSync(path.join(dir, 'index.mdx'), '---\ntitle: Home\n---\n\nHello.\n');
  // A hand-written API page: the playground's form comes from its ParamFields.
  fs.writeFileSync(
    path.join(dir, 'manual.mdx'),
    '---\ntitle: Manual\napi: POST /teams/{team}\n---\n\n<ParamField query="verbose" type="boolean">Say more</ParamField>\n\n<ParamField body="name" type="string" default="Ada" required>Who</ParamField>\n',
  );
  fs.writeFileSync(
    path.join(dir, 'docs.json'),
    JSON.stringify({
      name: 'Pets',
      theme: 'mint',
      colors: { primary: '#0E7C66' },
      api: { examples: { prefill: true }, mdx: { server: 'https://api.pets.example.com', auth: { method: 'key', name: 'X-Api-Key' } } },
      navigation: { tabs: [{ tab: 'Home', pages: ['index', 'manual'] }, { tab: 'API', openapi: 'openapi.json' }] },
    }),
  );
}

let browser: Browser;
let api: TestApi;
let other: TestApi;
let zip: string;
let work: string;

async function serve(playground: Record<string, unknown>): Promise<{ origin: string; close(): Promise<void> }> {
  const t: TestAppliance = createTestAppliance({
    config: {
      staticExport: { enabled: true, bundleUrl: zip, version: 'e2e' },
      site: { exampleOnFirstStart: false },
      projects: [{ id: TEST_PROJECT, orgId: TEST_ORG, name: 'Pets', domain: 'docs.test.internal', sourceDir: work, playground }],
    },
  });
  await t.start();
  const site = t.features.find((f) => f.name === 'site')!;
  const deadline = Date.now() + 30_000;
  while (!site.ready?.().ok) {
    if (Date.now() > deadline) throw new Error(`site not ready: ${site.ready?.().detail}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const server = http.createServer(t.site);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await t.close();
    },
  };
}

/** Open a page, recording every origin it contacts. */
async function open(url: string): Promise<{ page: Page; origins: Set<string>; problems: string[] }> {
  const page = await browser.newPage();
  const origins = new Set<string>();
  const problems: string[] = [];
  page.on('request', (r) => origins.add(new URL(r.url()).origin));
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(url, { waitUntil: 'networkidle' });
  return { page, origins, problems };
}

/** Keyboard only: Tab to "Try it", Enter, fill the form, send. */
async function tryIt(page: Page, id: string, more?: (dialog: ReturnType<Page['locator']>) => Promise<void>): Promise<void> {
  await page.locator('.pg-try').focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => page.locator('dialog.pg-dialog[open]').count()).toBe(1);
  const dialog = page.locator('dialog.pg-dialog');
  await dialog.locator('input[type=password]').fill('k-123');
  await dialog.locator('.pg-section', { hasText: 'Path parameters' }).locator('input').fill(id);
  await more?.(dialog);
  await dialog.locator('.pg-send').focus();
  await page.keyboard.press('Enter');
}

describe.skipIf(!chromium.path)(browserSuite('the API playground in Chromium'), () => {
  beforeAll(async () => {
    api = await testApi();
    other = await testApi();
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'playground-e2e-'));
    const src = path.join(work, 'docs');
    writeDocs(src, api.origin, other.origin);
    zip = path.join(work, 'site.zip');
    // Built with the policy its appliance serves (the export job and publish do this themselves,
    // app/site/site-csp.ts): every page's meta policy must allow what the header allows.
    const contentSecurityPolicy = withConnectOrigins(DEFAULT_SITE_CSP, [api.origin]);
    await exportSite({ pool: sharedRenderPool(), sourceDir: src, outZip: zip, projectId: TEST_PROJECT, domain: 'docs.test.internal', version: 'e2e', contentSecurityPolicy });
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await other?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('sends from the browser to the operator\'s base URL and shows the response; the page contacts no other origin', async () => {
    const site = await serve({ baseUrl: api.origin });
    try {
      const { page, origins, problems } = await open(`${site.origin}/api-reference/pets/create-pet/`);
      await tryIt(page, 'p 1');
      const out = page.locator('.pg-output');
      await expect.poll(() => out.locator('.pg-status').textContent(), { timeout: 15_000 }).toContain('201');
      expect(await out.locator('.pg-via').textContent()).toBe('sent from your browser');
      const shown = JSON.parse((await out.locator('.pg-body').textContent()) ?? '');
      // Prefilled from the schema's example (api.examples.prefill), path parameter encoded, key sent as the scheme says.
      expect(shown).toEqual({ created: { name: 'Rex' }, path: '/pets/p%201?verbose=true', key: 'k-123' });
      expect(await page.locator('.pg-target code').textContent()).toBe(`${api.origin}/pets/p%201?verbose=true`);
      expect(api.seen.at(-1)?.headers.origin).toBe(site.origin);
      expect([...origins].sort()).toEqual([api.origin, site.origin].sort());
      expect(problems).toEqual([]);
      // Escape closes the dialog and gives focus back to "Try it".
      await page.keyboard.press('Escape');
      await expect.poll(() => page.evaluate(() => document.activeElement?.className)).toBe('pg-try');
      await page.close();

      // A hand-written page: path parameter from the path, query and body from its ParamFields, key from api.mdx.auth.
      const manual = await open(`${site.origin}/manual/`);
      await tryIt(manual.page, 'blue', (dialog) => dialog.locator('.pg-link').click());
      await expect.poll(() => manual.page.locator('.pg-output .pg-status').textContent(), { timeout: 15_000 }).toContain('201');
      expect(JSON.parse((await manual.page.locator('.pg-output .pg-body').textContent()) ?? '')).toEqual({ created: { name: 'Ada' }, path: '/teams/blue', key: 'k-123' });
      expect([...manual.origins].sort()).toEqual([api.origin, site.origin].sort());
      await manual.page.close();
    } finally {
      await site.close();
    }
  });

  it('sends array and deepObject query parameters by their style, and a chosen file as a multipart part', async () => {
    const site = await serve({ baseUrl: api.origin });
    try {
      const { page, problems } = await open(`${site.origin}/api-reference/pets/add-photos/`);
      await page.locator('.pg-try').click();
      expect(await page.locator('dialog.pg-dialog input[type=password]').inputValue()).toBe('demo-key');
      await page.locator('.pg-close').click();
      await tryIt(page, 'p1', (dialog) => dialog.locator('input[type=file]').setInputFiles({ name: 'cat.png', mimeType: 'image/png', buffer: Buffer.from('PNG-BYTES') }));
      await expect.poll(() => page.locator('.pg-output .pg-status').textContent(), { timeout: 15_000 }).toContain('201');
      const seen = api.seen.at(-1)!;
      expect(seen.url).toBe('/pets/p1/photos?tags=a&tags=b&filter%5Bkind%5D=cat&page=0&sort=name&sort=id');
      expect(seen.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      expect(seen.body).toContain('name="caption"\r\n\r\nHi\r\n');
      expect(seen.body).toMatch(/name="photo"; filename="cat\.png"\r\nContent-Type: image\/png\r\n\r\nPNG-BYTES/);
      expect(problems).toEqual([]);
      await page.close();

      const form = await open(`${site.origin}/api-reference/pets/label-pet/`);
      await tryIt(form.page, 'p1');
      await expect.poll(() => form.page.locator('.pg-output .pg-status').textContent(), { timeout: 15_000 }).toContain('201');
      const sent = api.seen.at(-1)!;
      expect(sent.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(sent.body).toBe('name=Rex&metadata%5Bcolor%5D=red&expand%5B%5D=owner');
      expect(form.problems).toEqual([]);
      await form.page.close();
    } finally {
      await site.close();
    }
  });

  it("asks for the server's variables, starting at the examples' values, and sends to the URL they make", async () => {
    const site = await serve({ allowedOrigins: [api.origin] });
    try {
      const before = api.seen.length;
      const { page, problems } = await open(`${site.origin}/api-reference/pets/create-regional/`);
      expect(await page.locator('.c-example--request').textContent()).toContain('http://127.0.0.1:9/v1/regions/');
      const port = new URL(api.origin).port;
      await tryIt(page, 'r1', async (dialog) => {
        // In the server's order: `port` (a text box), `version` (a list, its enum).
        const portBox = dialog.locator('input[id$="-var0"]');
        const version = dialog.locator('select[id$="-var1"]');
        expect(await dialog.locator('label[for$="-var0"]').textContent()).toContain('port');
        expect(await portBox.inputValue()).toBe('9');
        expect(await version.inputValue()).toBe('v1');
        await portBox.fill(port);
        await version.selectOption('v2');
        await expect.poll(() => page.locator('.pg-target code').textContent()).toBe(`${api.origin}/v2/regions/r1?verbose=true`);
      });
      await expect.poll(() => page.locator('.pg-output .pg-status').textContent(), { timeout: 15_000 }).toContain('201');
      expect(api.seen.length).toBe(before + 1);
      expect(api.seen.at(-1)?.url).toBe('/v2/regions/r1?verbose=true');
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await site.close();
    }
  });

  it('with the proxy on, goes through the site listener to the allowed origin; a non-allowed origin is refused in words and never contacted', async () => {
    const site = await serve({ allowedOrigins: [api.origin], proxy: true });
    try {
      const before = api.seen.length;
      const { page, origins } = await open(`${site.origin}/api-reference/pets/create-allowed/`);
      await tryIt(page, 'a1');
      const out = page.locator('.pg-output');
      await expect.poll(() => out.locator('.pg-status').textContent(), { timeout: 15_000 }).toContain('201');
      expect(await out.locator('.pg-via').textContent()).toBe("through this site's proxy");
      expect(JSON.parse((await out.locator('.pg-body').textContent()) ?? '')).toEqual({ created: { name: 'Rex' }, path: '/allowed/a1?verbose=true', key: 'k-123' });
      expect(api.seen.length).toBe(before + 1);
      // Forwarded by the appliance: the browser itself only talked to the site.
      expect([...origins]).toEqual([site.origin]);
      await page.close();

      const refused = await open(`${site.origin}/api-reference/pets/create-other/`);
      await tryIt(refused.page, 'o1');
      const error = refused.page.locator('.pg-output .pg-error');
      await expect.poll(() => error.textContent()).toContain('Origin not allowed');
      expect(await error.textContent()).toContain(`${other.origin} is not one of them`);
      expect(other.seen).toHaveLength(0);
      expect([...refused.origins]).toEqual([site.origin]);
      await refused.page.close();
    } finally {
      await site.close();
    }
  });
});
