import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSite } from '../../renderer/index.js';
import { sharedRenderPool } from '../helpers/render-pool.js';
import { pythonStaticServer, type StaticServer } from '../helpers/static-server.js';
import { tempSite } from '../renderer/load/site-fixtures.js';
import { launchBrowser } from './browser.js';
import { browserSuite, chromium } from './chromium.js';

/**
 * The page menu (docs.json `contextual`) in Chromium, on an export served by a plain static server
 * over http: "Copy page" puts the
 * page's Markdown on the clipboard, "View as Markdown" opens it, and a link with `$page` carries it.
 */
let server: StaticServer;
let browser: Browser;
let context: BrowserContext;
let helpdesk: http.Server;
const received: string[] = [];

describe.skipIf(!chromium.path)(browserSuite('the contextual menu in Chromium'), () => {
  beforeAll(async () => {
    // Stands in for a service inside the network that a custom option links to.
    helpdesk = http.createServer((req, res) => {
      if (req.url?.startsWith('/new')) received.push(req.url);
      res.end('ok');
    });
    await new Promise<void>((r) => helpdesk.listen(0, '127.0.0.1', () => r()));
    const helpdeskUrl = `http://127.0.0.1:${(helpdesk.address() as AddressInfo).port}/new`;
    const files = {
      'docs.json': JSON.stringify({
        name: 'Ctx',
        theme: 'mint',
        navigation: { pages: ['index', 'setup'] },
        contextual: { options: ['copy', 'view', { title: 'Ask the helpdesk', description: 'With this page', href: { base: helpdeskUrl, query: [{ key: 'body', value: '$page' }] } }] },
      }),
      'index.mdx': '---\ntitle: Home\n---\nWelcome.\n',
      'setup.mdx': '---\ntitle: Setup\ndescription: Install it.\n---\nRun `make install` — then *relax*.\n',
    };
    const outDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docs-contextual-e2e-')), 'site');
    await exportSite({ pool: sharedRenderPool(), sourceDir: tempSite(files), outDir });
    server = await pythonStaticServer(outDir);
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
    await new Promise<void>((r) => (helpdesk ? helpdesk.close(() => r()) : r()));
  });

  const expected = '# Setup\n\n> Install it.\n\nRun `make install` — then *relax*.\n';

  it.each([
    ['through the Clipboard API', false],
    // Sites inside a network are often plain http on an internal name: no Clipboard API there.
    ['outside a secure context, through a selected text area', true],
  ])('copies the page as Markdown %s, says so, and closes the list', async (_how, insecure) => {
    const page = await context.newPage();
    if (insecure) await page.addInitScript(() => Object.defineProperty(window, 'isSecureContext', { value: false }));
    await page.goto(`${server.origin}/setup/`, { waitUntil: 'networkidle' });
    expect(await page.evaluate(() => window.isSecureContext)).toBe(!insecure);
    await page.evaluate(() => navigator.clipboard.writeText('before'));
    await page.click('.contextual-more > summary');
    expect(await page.locator('.contextual-list').isVisible()).toBe(true);
    await page.click('.contextual-list [data-contextual-action="copy"]');
    await page.waitForFunction(() => document.querySelector('[data-contextual-label]')?.textContent === 'Copied');
    expect(await page.locator('.contextual-list').isVisible()).toBe(false);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(expected);
    // The label comes back.
    await page.waitForFunction(() => document.querySelector('[data-contextual-label]')?.textContent === 'Copy page', undefined, { timeout: 5000 });
    await page.close();
  });

  it('"View as Markdown" opens the page\'s Markdown; a $page link carries it to the service', async () => {
    const page = await context.newPage();
    await page.goto(`${server.origin}/setup/`, { waitUntil: 'networkidle' });
    await page.click('.contextual-more > summary');
    await page.click('.contextual-list a[href="/setup.md"]');
    await page.waitForURL(`${server.origin}/setup.md`);
    expect(await page.evaluate(() => document.body.innerText)).toContain('Run `make install`');
    await page.goBack({ waitUntil: 'networkidle' });
    await page.click('.contextual-more > summary');
    const popup = page.waitForEvent('popup');
    await page.click('.contextual-list [data-contextual-action="open"]');
    const opened = await popup;
    await opened.waitForLoadState();
    await expect.poll(() => received.length).toBe(1);
    expect(new URL(received[0]!, 'http://x').searchParams.get('body')).toBe(expected);
    // Escape closes the list.
    await page.click('.contextual-more > summary');
    await page.keyboard.press('Escape');
    expect(await page.locator('.contextual-list').isVisible()).toBe(false);
    await page.close();
  });
});
