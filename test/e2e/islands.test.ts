import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../../config/schema.js';
import { exportSite } from '../../renderer/index.js';
import { fixtureSite } from '../renderer/load/site-fixtures.js';
import { launchBrowser } from './browser.js';
import { sendBundleFile } from '../helpers/bundle-file.js';
import { browserSuite, chromium } from './chromium.js';
import { sharedRenderPool } from '../helpers/render-pool.js';

/**
 * Running components in Chromium: the islands fixture exported to a folder and served as plain
 * files (any static host), with the site listener's default Content-Security-Policy (no inline
 * script, no eval).
 */
let server: http.Server;
let origin: string;
let browser: Browser;
async function open(urlPath: string): Promise<{ page: Page; problems: string[]; warnings: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  const warnings: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  // The browser asks for /favicon.ico by itself; the fixture has none.
  page.on('response', (r) => {
    // The test server is a plain static host: the appliance's own endpoints under /_/ (beacons, the assistant's status) answer 404 there by design.
    if (r.status() >= 400 && !r.url().endsWith('/favicon.ico') && !new URL(r.url()).pathname.startsWith('/_/')) problems.push(`${r.status()} ${r.url()}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text());
    if (m.type() === 'warning') warnings.push(m.text());
  });
  await page.goto(origin + urlPath, { waitUntil: 'networkidle' });
  return { page, problems, warnings };
}

describe.skipIf(!chromium.path)(browserSuite('exported components in Chromium'), () => {
  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'islands-site-'));
    await exportSite({ pool: sharedRenderPool(), sourceDir: fixtureSite('islands'), outDir: dir });
    const csp = configSchema.parse({}).site.contentSecurityPolicy;
    server = http.createServer((req, res) => {
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

  it('runs a component with useState: a click changes what it shows', async () => {
    const { page, problems } = await open('/');
    await expect.poll(() => page.locator('.c-callout__content', { hasText: 'Running in the browser' }).count()).toBe(1);
    expect(await page.locator('.counter-label').textContent()).toBe('Count: 2');
    await page.click('.counter-button');
    await page.click('.counter-button');
    expect(await page.locator('.counter-label').textContent()).toBe('Count: 4');
    expect(await page.locator('.counter-moved').textContent()).toBe('Moved from 2');
    expect(await page.locator('.counter-box').evaluate((el) => (el as HTMLElement).style.borderColor)).toBe('teal');
    // Children rendered by the exporter reach the component as HTML.
    expect(await page.locator('.counter-children strong').textContent()).toBe('stay');
    expect(await page.locator('a.hero-link').textContent()).toBe('OTHER PAGE');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a component that throws in the browser shows nothing, with a console warning; the rest of the page works', async () => {
    const { page, problems, warnings } = await open('/');
    await expect.poll(() => page.locator('.counter-label').textContent()).toBe('Count: 2');
    expect(await page.locator('.fragile').count()).toBe(0);
    expect(warnings.some((w) => w.includes('snippets/counter.jsx#Fragile') && w.includes('fragile component broke'))).toBe(true);
    expect(await page.locator('#page-content').textContent()).toContain('Text after the components.');
    await page.click('.counter-button');
    expect(await page.locator('.counter-label').textContent()).toBe('Count: 3');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows icons in a running component: literal, chosen from literals after a click, computed; a name only the browser computes gets the placeholder', async () => {
    const { page, problems, warnings } = await open('/icons/');
    // Running (not only pre-rendered): the click handler works.
    await page.click('.icon-toggle');
    await expect.poll(() => page.locator('.icon-arrow svg.icon-arrow-down').count()).toBe(1);
    expect(await page.locator('.icon-showcase > .c-icon-inline svg.icon-rocket.c-icon').count()).toBe(1);
    expect(await page.locator('.icon-showcase > .c-icon-inline').getAttribute('style')).toBe('--icon-size:20px;color:#ff0000');
    expect(await page.locator('.icon-computed svg.icon-feather').count()).toBe(1);
    expect(await page.locator('.icon-late svg.icon-house').count()).toBe(1);
    expect(await page.locator('.c-card .c-card__icon svg.icon-bolt.c-card__icon-svg').count()).toBe(1);
    // The SVG is drawn, not an empty box.
    expect(await page.locator('.icon-showcase > .c-icon-inline svg').evaluate((el) => el.getBoundingClientRect().width)).toBeGreaterThan(0);
    expect(warnings).toEqual([]);
    await page.click('.icon-toggle');
    await expect.poll(() => page.locator('.icon-late svg.icon-placeholder[data-icon="ghost"]').count()).toBe(1);
    expect(warnings.filter((w) => w.includes('"ghost" was not bundled'))).toHaveLength(1);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('Mintlify components inside a running component show as the same components written in MDX; their tabs switch', async () => {
    const markup = async (urlPath: string, hydrated: boolean): Promise<string> => {
      const { page, problems } = await open(urlPath);
      if (hydrated) await expect.poll(() => page.evaluate(() => document.querySelector('[data-island] template') === null)).toBe(true);
      // The element tree with each element's attributes sorted (their order carries no meaning).
      const html = await page.locator('.all').evaluate((root) => {
        const walk = (n: Node): string => {
          if (n.nodeType === 3) return (n.textContent ?? '').trim();
          if (!(n instanceof Element)) return '';
          const attrs = Array.from({ length: n.attributes.length }, (_, i) => n.attributes.item(i) as Attr).map((a) => `${a.name}="${a.value}"`).sort().join(' ');
          return `<${n.localName}${attrs ? ` ${attrs}` : ''}>${Array.from({ length: n.childNodes.length }, (_, i) => walk(n.childNodes.item(i))).join('')}</${n.localName}>`;
        };
        return walk(root);
      });
      if (hydrated) {
        await page.locator('.all .c-tabs__tab', { hasText: 'Two' }).click();
        expect(await page.locator('.all .c-tabs__panel', { hasText: 'Second tab' }).isVisible()).toBe(true);
        expect(await page.locator('.all .c-tabs__panel', { hasText: 'First tab' }).isVisible()).toBe(false);
      }
      expect(problems).toEqual([]);
      await page.close();
      return html.replace(/(?:island-)?(tabs|tip)-\d+/g, '$1-N');
    };
    const island = await markup('/builtins/', true);
    const mdx = await markup('/builtins-mdx/', false);
    expect(island).toContain('icon-rocket');
    expect(island).toBe(mdx);
  });

  it('runs props that are code: rows from a call, a cell component, a handler', async () => {
    const { page, problems } = await open('/code-props/');
    await expect.poll(() => page.locator('.transport-table .name-cell').allTextContents()).toEqual(['daily', 'websocket']);
    await page.locator('.pick', { hasText: '1.2.0' }).click();
    await expect.poll(() => page.locator('.picked').textContent()).toBe('Picked: WEBSOCKET');
    expect(problems).toEqual([]);
    await page.close();
  });
});
