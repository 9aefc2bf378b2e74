/**
 * `npm run screenshots`: export the bundled example docs, serve them through the appliance's site
 * listener, and save desktop and phone screenshots of the home page, the component showcase and
 * the search results into docs/screenshots/ (committed, so the README shows the product); then the
 * same for a page generated from an OpenAPI document (the API-reference tests' pet store) and its
 * "Try it" playground.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportSite } from '../renderer/index.js';
import { createTestAppliance, TEST_ORG, TEST_PROJECT } from '../test/helpers/appliance.js';
import { launchBrowser } from '../test/e2e/browser.js';
import { serveExampleSite } from '../test/e2e/served-site.js';
import { NEW_PET_YAML, PETS_31, yaml } from '../test/renderer/openapi/fixtures.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The pet store spec exported and served by the appliance, the playground pointed at a loopback base URL. */
async function serveApiSite(): Promise<{ origin: string; close(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-screens-'));
  const src = path.join(dir, 'docs');
  fs.mkdirSync(path.join(src, 'schemas'), { recursive: true });
  fs.writeFileSync(path.join(src, 'openapi.yaml'), yaml(PETS_31));
  fs.writeFileSync(path.join(src, 'schemas/new-pet.yaml'), NEW_PET_YAML);
  fs.writeFileSync(path.join(src, 'index.mdx'), '---\ntitle: Pet store\n---\nThe API reference is generated from `openapi.yaml`.\n');
  fs.writeFileSync(
    path.join(src, 'docs.json'),
    JSON.stringify({ name: 'Pet store', theme: 'mint', colors: { primary: '#0F766E' }, api: { examples: { prefill: true } }, navigation: { tabs: [{ tab: 'Guides', pages: ['index'] }, { tab: 'API reference', openapi: 'openapi.yaml' }] } }),
  );
  const zip = path.join(dir, 'site.zip');
  await exportSite({ sourceDir: src, outZip: zip, projectId: TEST_PROJECT, domain: 'docs.test.internal', version: 'screens' });
  const t = createTestAppliance({
    config: {
      staticExport: { enabled: true, bundleUrl: zip, version: 'screens' },
      site: { exampleOnFirstStart: false },
      projects: [{ id: TEST_PROJECT, orgId: TEST_ORG, name: 'Pets', domain: 'docs.test.internal', sourceDir: src, playground: { baseUrl: 'http://127.0.0.1:9/v1' } }],
    },
  });
  await t.start();
  const site = t.features.find((f) => f.name === 'site')!;
  while (!site.ready?.().ok) await new Promise((r) => setTimeout(r, 50));
  const server = http.createServer(t.site);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await t.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const out = path.resolve(import.meta.dirname, '../docs/screenshots');
const site = await serveExampleSite();
const browser = await launchBrowser();
try {
  for (const [device, viewport] of [
    ['desktop', { width: 1280, height: 860 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    for (const theme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ viewport, colorScheme: theme, deviceScaleFactor: device === 'phone' ? 2 : 1, isMobile: device === 'phone' });
      const page = await context.newPage();
      const shots: [string, string, ((p: typeof page) => Promise<void>)?][] = [
        ['home', '/'],
        ['components', '/guides/components'],
        [
          'search',
          '/guides/static-export',
          async (p) => {
            await p.locator('[data-search-open]').first().click();
            await p.locator('#search-input').fill('bundle');
            await p.locator('.search-result-link').first().waitFor();
            // Snippets are fetched from the result pages once typing pauses.
            await p.locator('.search-result-snippet:not(:empty)').first().waitFor({ timeout: 10_000 });
          },
        ],
      ];
      for (const [name, url, act] of shots) {
        if (theme === 'dark' && name !== 'home' && device === 'phone') continue;
        await page.goto(site.origin + url, { waitUntil: 'networkidle' });
        await act?.(page);
        const file = path.join(out, `${name}-${device}${theme === 'dark' ? '-dark' : ''}.png`);
        await page.screenshot({ path: file });
        console.log(`wrote ${path.relative(process.cwd(), file)}`);
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  await site.close();
}

const api = await serveApiSite();
const apiBrowser = await launchBrowser();
try {
  for (const [name, viewport, theme, dialog] of [
    ['api-page-desktop', { width: 1280, height: 860 }, 'light', false],
    ['api-page-desktop-dark', { width: 1280, height: 860 }, 'dark', false],
    ['api-page-phone', { width: 390, height: 844 }, 'light', false],
    ['api-playground-desktop', { width: 1280, height: 860 }, 'light', true],
    ['api-playground-desktop-dark', { width: 1280, height: 860 }, 'dark', true],
  ] as const) {
    const phone = viewport.width < 600;
    const context = await apiBrowser.newContext({ viewport, colorScheme: theme, deviceScaleFactor: phone ? 2 : 1, isMobile: phone });
    const page = await context.newPage();
    await page.goto(`${api.origin}/api-reference/pets/create-pet/`, { waitUntil: 'networkidle' });
    if (dialog) {
      await page.locator('.pg-try').click();
      await page.locator('dialog.pg-dialog[open]').waitFor();
    }
    const file = path.join(out, `${name}.png`);
    await page.screenshot({ path: file });
    console.log(`wrote ${path.relative(process.cwd(), file)}`);
    await context.close();
  }
} finally {
  await apiBrowser.close();
  await api.close();
}
