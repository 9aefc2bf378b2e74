import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRenderPool, exportSite } from '../../renderer/index.js';
import { pythonStaticServer, type StaticServer } from '../helpers/static-server.js';
import { tempSite } from '../renderer/load/site-fixtures.js';
import { launchBrowser } from './browser.js';
import { browserSuite, chromium } from './chromium.js';

/**
 * Big sites in Chromium on a plain static server (issue 18): the sidebar of a large tab on first
 * paint with and without JavaScript, and reader search scoped to the page's language and version,
 * widened on request with labels.
 */

/** One tab of 12 groups × 50 pages (600 links: past the inline limit), two languages × two versions of a small guide. */
function bigSite(): string {
  const files: Record<string, string> = {};
  const groups = Array.from({ length: 12 }, (_, g) => ({
    group: `Group ${g}`,
    pages: Array.from({ length: 50 }, (_, k) => {
      const slug = `big/g${g}/p${k}`;
      files[`${slug}.mdx`] = `---\ntitle: Page ${g}.${k}\n---\n\nText of page ${g}.${k}.\n`;
      return slug;
    }),
  }));
  const languages = ['en', 'fr'].map((language) => ({
    language,
    versions: ['v2', 'v1'].map((version) => ({
      version,
      tabs: [
        {
          tab: 'Guides',
          groups: [
            {
              group: 'Start',
              pages: ['install', 'webhooks'].map((topic) => {
                const slug = `${language}/${version}/${topic}`;
                files[`${slug}.mdx`] = `---\ntitle: ${topic} ${language} ${version}\n---\n\nThe ${topic} page: quasarflux settings for ${version}.\n`;
                return slug;
              }),
            },
          ],
        },
        ...(language === 'en' && version === 'v2' ? [{ tab: 'Big', groups }] : []),
      ],
    })),
  }));
  files['docs.json'] = JSON.stringify({ name: 'Big', navigation: { languages } });
  return tempSite(files);
}

let server: StaticServer;
let browser: Browser;

describe.skipIf(!chromium.path)(browserSuite('a big site in Chromium'), () => {
  beforeAll(async () => {
    const outDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docs-big-')), 'site');
    const pool = createRenderPool({ threads: 2 });
    try {
      await exportSite({ sourceDir: bigSite(), outDir, pool });
    } finally {
      await pool.close();
    }
    server = await pythonStaticServer(outDir);
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
  });

  async function open(urlPath: string, javaScriptEnabled = true): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled });
    const page = await context.newPage();
    const res = await page.goto(server.origin + urlPath, { waitUntil: 'load' });
    expect(res?.status(), urlPath).toBe(200);
    return page;
  }

  it('without JavaScript: the sidebar shows the page current and visible in its open group, its neighbours, and every group', async () => {
    const page = await open('/big/g7/p20/', false);
    const current = page.locator('.sidebar-nav a[aria-current="page"]');
    await expect.poll(() => current.count()).toBe(1);
    expect(await current.textContent()).toBe('Page 7.20');
    expect(await current.isVisible()).toBe(true);
    expect(await page.locator('.sidebar-nav a[href="/big/g7/p21/"]').isVisible()).toBe(true);
    for (let g = 0; g < 12; g++) expect(await page.locator('.sidebar-nav').getByText(`Group ${g}`, { exact: true }).count(), `group ${g}`).toBe(1);
    const links = await page.locator('.sidebar-nav a').count();
    expect(links).toBeLessThan(150);
    // A heading leads to its group's first page, where that group is carried.
    await page.locator('.sidebar-nav a', { hasText: 'Group 2' }).click();
    await page.waitForURL(/\/big\/g2\/p0\/$/);
    expect(await page.locator('.sidebar-nav a[aria-current="page"]').textContent()).toBe('Page 2.0');
    await page.context().close();
  });

  it('with JavaScript: the window (the first paint) is replaced by the whole tab from the shared file, the page still current and in view', async () => {
    const page = await open('/big/g7/p20/');
    await page.waitForSelector('.sidebar-nav[data-sidebar-full]');
    expect(await page.locator('.sidebar-nav a[href^="/big/"]').count()).toBe(600);
    const current = page.locator('.sidebar-nav a[aria-current="page"]');
    expect(await current.count()).toBe(1);
    expect(await current.textContent()).toBe('Page 7.20');
    expect(await current.isVisible()).toBe(true);
    const box = await current.boundingBox();
    expect(box!.y).toBeGreaterThan(0);
    expect(box!.y).toBeLessThan(900);
    await page.context().close();
  });

  async function search(page: Page, query: string): Promise<{ urls: string[]; labels: string[] }> {
    await page.locator('[data-search-open]').first().click();
    await page.locator('#search-input').fill(query);
    await page.locator('.search-result-link').first().waitFor();
    return {
      urls: await page.locator('.search-result-link').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? '')),
      labels: await page.locator('.search-result').evaluateAll((items) => items.map((li) => li.querySelector('.search-result-scope')?.textContent ?? '')),
    };
  }

  it('searches the reader’s language and version, and widens to every version and language with labels', async () => {
    const page = await open('/fr/v1/install/');
    const scoped = await search(page, 'webhooks');
    expect(scoped.urls).toEqual(['/fr/v1/webhooks/']);
    expect(scoped.labels).toEqual(['']);
    const widen = page.locator('#search-scope');
    await widen.waitFor();
    // A French page: the scope button in French (renderer/i18n/client-strings.ts).
    expect(await widen.textContent()).toBe('Rechercher dans toutes les versions et langues');
    await widen.click();
    await page.locator('.search-result-scope').first().waitFor();
    const urls = await page.locator('.search-result-link').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
    const labels = await page.locator('.search-result').evaluateAll((items) => items.map((li) => li.querySelector('.search-result-scope')?.textContent ?? ''));
    expect(urls[0]).toBe('/fr/v1/webhooks/');
    expect(labels[0]).toBe('');
    expect(urls.slice(1).sort()).toEqual(['/en/v1/webhooks/', '/en/v2/webhooks/', '/fr/v2/webhooks/']);
    expect(labels.slice(1).sort()).toEqual(['en', 'en · v2', 'v2']);
    expect(await widen.getAttribute('aria-pressed')).toBe('true');
    expect(await widen.textContent()).toBe('Rechercher dans cette version et cette langue seulement');
    await page.context().close();
  });

  it('fetches only the reader’s scope for a first query', async () => {
    const page = await open('/en/v2/install/');
    const fetched: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith('/_search/')) fetched.push(u.pathname);
    });
    expect((await search(page, 'quasarflux')).urls.sort()).toEqual(['/en/v2/install/', '/en/v2/webhooks/']);
    expect(fetched.length).toBeGreaterThan(0);
    expect(fetched.every((p) => p.startsWith('/_search/en--v2/') || p === '/_search/scopes.json'), fetched.join(', ')).toBe(true);
    await page.context().close();
  });
});
