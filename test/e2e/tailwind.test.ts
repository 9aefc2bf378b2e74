import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSite } from '../../renderer/index.js';
import { tempSite } from '../renderer/load/site-fixtures.js';
import { launchBrowser } from './browser.js';
import { browserSuite, chromium } from './chromium.js';
import { sharedRenderPool } from '../helpers/render-pool.js';

/**
 * A Tailwind light/dark image pair in headless Chromium: the generated stylesheet, the theme's
 * dark-mode toggle and the theme's own image styles together show exactly one image per theme.
 */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

describe.skipIf(!chromium.path)(browserSuite('Tailwind light/dark pairs in Chromium'), () => {
  let browser: Browser;
  let server: http.Server;
  let origin = '';

  beforeAll(async () => {
    const source = tempSite({
      'docs.json': JSON.stringify({ name: 'Pairs', navigation: { pages: ['index'] } }),
      'index.mdx': [
        '---',
        'title: Pairs',
        '---',
        '',
        '<Frame>',
        '  <img src="/light.png" className="block dark:hidden" alt="light image" width="40" height="20" />',
        '  <img src="/dark.png" className="hidden dark:block" alt="dark image" width="40" height="20" />',
        '</Frame>',
        '',
        '![plain light](/light.png)',
        '',
        'A [plain link](/) in text.',
        '',
        '<a href="/" className="group flex flex-col rounded-2xl border p-4">',
        '  <h3 className="text-base font-semibold">',
        '    Card heading',
        '  </h3>',
        '</a>',
        '',
        '<a href="/" className="underline">asked to underline</a>',
        '',
      ].join('\n'),
    });
    fs.writeFileSync(path.join(source, 'light.png'), PNG);
    fs.writeFileSync(path.join(source, 'dark.png'), Buffer.concat([PNG, Buffer.from([0])]));
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'tailwind-e2e-'));
    await exportSite({ pool: sharedRenderPool(), sourceDir: source, outDir: out });
    // A plain static server with the site's Content-Security-Policy.
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x').pathname;
      const file = path.join(out, url === '/' ? 'index.html' : url);
      if (!file.startsWith(out) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) return void res.writeHead(404).end();
      const type = file.endsWith('.html') ? 'text/html; charset=utf-8' : file.endsWith('.css') ? 'text/css' : file.endsWith('.js') ? 'text/javascript' : file.endsWith('.png') ? 'image/png' : 'application/octet-stream';
      res.writeHead(200, { 'content-type': type, 'content-security-policy': "default-src 'self'; img-src 'self' data:" }).end(fs.readFileSync(file));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  async function visibleImages(colorScheme: 'light' | 'dark'): Promise<string[]> {
    const context = await browser.newContext({ colorScheme });
    const page = await context.newPage();
    await page.goto(`${origin}/`, { waitUntil: 'load' });
    expect(await page.locator('html').getAttribute('data-theme')).toBe(colorScheme);
    // Shown or not by the page's CSS (`hidden`, `dark:block`): an image the rules hide has no
    // offset parent. Its size is not asked: a lazy image without width and height may not have
    // loaded yet when `load` fires, which made this check race (one CI run in several).
    const alts = await page.locator('#page-content img').evaluateAll((imgs) =>
      imgs.filter((img) => (img as HTMLElement).offsetParent !== null && getComputedStyle(img).visibility !== 'hidden').map((img) => img.getAttribute('alt') ?? ''),
    );
    await context.close();
    return alts;
  }

  it('shows only the light image of a pair in light mode', async () => {
    expect(await visibleImages('light')).toEqual(['light image', 'plain light']);
  });

  it('shows only the dark image of a pair in dark mode', async () => {
    expect(await visibleImages('dark')).toEqual(['dark image', 'plain light']);
  });

  it('underlines plain links, not a link the author styled with classes, unless a class asks for it', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${origin}/`, { waitUntil: 'load' });
    const line = (selector: string): Promise<string> => page.locator(selector).first().evaluate((el) => getComputedStyle(el).textDecorationLine);
    expect(await line('#page-content p a:text("plain link")')).toBe('underline');
    // The browser's own underline would run through the card's heading (text-decoration propagates).
    expect(await line('#page-content a.group')).toBe('none');
    expect(await line('#page-content a.underline')).toBe('underline');
    await context.close();
  });
});
