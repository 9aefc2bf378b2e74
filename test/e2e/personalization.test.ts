import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../config/schema.js';
import { exportSite } from '../../renderer/index.js';
import { PERSONAL_FILES } from '../renderer/access/personal-pages.js';
import { tempSite } from '../renderer/load/site-fixtures.js';
import { sharedRenderPool } from '../helpers/render-pool.js';
import { launchBrowser } from './browser.js';
import { sendBundleFile } from '../helpers/bundle-file.js';
import { browserSuite, chromium } from './chromium.js';

/**
 * Personalization in Chromium (issue 40, create/personalization.mdx): a site exported with reader
 * access, served as files with the site listener's default CSP by a small server that answers
 * `GET /_/reader/user` as the appliance does (the cookie `who=jane` is a signed-in reader; without
 * it the answer is 404, as on a site without reader access). `{user.*}` and a conditional on
 * `user.plan` show the reader's content; the playground is prefilled from `apiPlaygroundInputs`.
 */
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Acme', version: '1' },
  servers: [{ url: 'https://{tenant}.api.acme.test', variables: { tenant: { default: 'demo' } } }],
  components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
  security: [{ key: [] }],
  paths: {
    '/orders/{orderId}': {
      get: {
        summary: 'Get order',
        parameters: [
          { name: 'orderId', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'OK' } },
      },
    },
  },
};
const FILES: Record<string, string> = {
  ...PERSONAL_FILES,
  'docs.json': JSON.stringify({ name: 'Acme', theme: 'mint', navigation: { tabs: [{ tab: 'Guides', pages: ['index', 'welcome', 'plain'] }, { tab: 'API', openapi: { source: 'openapi.json', directory: 'api' } }] } }),
  'openapi.json': JSON.stringify(SPEC),
};
const JANE = {
  signedIn: true,
  groups: ['customers'],
  content: { firstName: 'Jane', plan: 'enterprise', org: { plan: 'Gold' } },
  apiPlaygroundInputs: { header: { 'x-api-key': 'user_key_123', 'X-Trace': 'not-a-scheme' }, path: { orderId: 'ord_42' }, server: { tenant: 'acme' } },
};
let server: http.Server;
let origin: string;
let browser: Browser;
let userRequests = 0;

async function open(urlPath: string, signedIn: boolean): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext();
  if (signedIn) await context.addCookies([{ name: 'who', value: 'jane', url: origin }]);
  const page = await context.newPage();
  // A custom script's way to hear of the reader (create/personalization.mdx).
  await page.addInitScript(() => {
    window.addEventListener('mintlify:user', (e) => {
      (window as unknown as { heard: unknown }).heard = (e as CustomEvent).detail;
    });
  });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(origin + urlPath, { waitUntil: 'networkidle' });
  return { page, errors };
}

describe.skipIf(!chromium.path)(browserSuite('personalization in Chromium'), () => {
  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'personal-site-'));
    await exportSite({ pool: sharedRenderPool(), sourceDir: tempSite(FILES), outDir: dir, readerAccess: true });
    const csp = configSchema.parse({}).site.contentSecurityPolicy;
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/_/reader/user') {
        userRequests++;
        if (!/(?:^|;\s*)who=jane(?:;|$)/.test(req.headers.cookie ?? '')) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'private, no-store' }).end(JSON.stringify(JANE));
        return;
      }
      if (url.pathname === '/_/assistant') {
        // As the appliance: the site is served by it (so reader.js asks for the reader).
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ appliance: true, enabled: false }));
        return;
      }
      sendBundleFile(dir, csp, req, res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => server?.close(r));
  });

  it("shows the signed-in reader's content, and window.mintlify.user for custom scripts", async () => {
    const before = userRequests;
    const { page, errors } = await open('/welcome', true);
    await expect.poll(() => page.locator('#page-content').innerText()).toContain('Welcome back, Jane! Your Gold plan is ready.');
    const text = await page.locator('#page-content').innerText();
    expect(text).toContain('Contact your admin to enable this feature.');
    expect(text).not.toContain('for information about upgrading');
    // A snippet component reading user.
    expect(await page.locator('.plan-badge').textContent()).toBe('Plan: enterprise');
    expect(await page.evaluate(() => (window as unknown as { mintlify: { user: { firstName: string } } }).mintlify.user.firstName)).toBe('Jane');
    expect(await page.evaluate(() => (window as unknown as { heard: { plan: string } }).heard.plan)).toBe('enterprise');
    expect(userRequests - before).toBe(1);
    expect(errors).toEqual([]);
  });

  it('shows the signed-out text when the site answers 404 (user is {}), with optional chaining working', async () => {
    const { page, errors } = await open('/welcome', false);
    await expect.poll(() => page.evaluate(() => typeof (window as unknown as { mintlify?: { signedIn?: boolean } }).mintlify?.signedIn)).toBe('boolean');
    const text = await page.locator('#page-content').innerText();
    expect(text).toMatch(/Welcome back, ?! Your ?plan is ready\./);
    expect(text).toContain('See pricing for information about upgrading.');
    expect(await page.locator('.plan-badge').textContent()).toBe('No plan');
    expect(await page.evaluate(() => JSON.stringify((window as unknown as { heard: unknown }).heard))).toBe('{}');
    expect(errors).toEqual([]);
  });

  it('does not ask for the reader on a page that does not use user', async () => {
    const before = userRequests;
    const { page } = await open('/plain', true);
    expect(await page.locator('#page-content').innerText()).toContain('No reader here: someone, 4.');
    expect(userRequests).toBe(before);
  });

  it("prefills the playground from apiPlaygroundInputs: the scheme's header, the path parameter and the server variable", async () => {
    const { page, errors } = await open('/api/get-order', true);
    await page.locator('.pg-try').click();
    const value = (label: string): Promise<string> =>
      page.locator('.pg-dialog .pg-row', { has: page.locator('.pg-label', { hasText: label }) }).locator('.pg-input').first().inputValue();
    expect(await value('X-API-Key')).toBe('user_key_123');
    expect(await value('orderId')).toBe('ord_42');
    expect(await value('tenant')).toBe('acme');
    // Not the endpoint's security scheme: not prefilled.
    expect(await value('X-Trace')).toBe('');
    expect(errors).toEqual([]);
  });

  it("keeps what the reader typed in this tab over the prefill", async () => {
    const { page } = await open('/api/get-order', true);
    await page.locator('.pg-try').click();
    const key = page.locator('.pg-dialog .pg-row', { has: page.locator('.pg-label', { hasText: 'X-API-Key' }) }).locator('.pg-input').first();
    await key.fill('my_own_key');
    await page.reload({ waitUntil: 'networkidle' });
    await page.locator('.pg-try').click();
    expect(await page.locator('.pg-dialog .pg-row', { has: page.locator('.pg-label', { hasText: 'X-API-Key' }) }).locator('.pg-input').first().inputValue()).toBe('my_own_key');
  });
});
