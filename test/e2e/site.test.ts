import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PROJECT } from '../helpers/appliance.js';
import { launchBrowser } from './browser.js';
import { browserSuite, chromium } from './chromium.js';
import { serveExampleSite, type ServedSite } from './served-site.js';

/**
 * The exported example docs in headless Chromium, served by the appliance's own site listener:
 * navigation, search with analytics, interactive components, dark mode, zero outside requests.
 */
let site: ServedSite;
let browser: Browser;
let context: BrowserContext;
const outside: string[] = [];
const consoleErrors: string[] = [];

function watch(page: Page) {
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (err) => consoleErrors.push(`${page.url()}: ${err.message}`));
}

async function open(path: string): Promise<Page> {
  const page = await context.newPage();
  const res = await page.goto(site.origin + path, { waitUntil: 'networkidle' });
  expect(res?.status(), path).toBe(200);
  return page;
}

describe.skipIf(!chromium.path)(browserSuite('the exported site in Chromium'), () => {
  beforeAll(async () => {
    site = await serveExampleSite();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.origin });
    context.on('request', (req) => {
      const url = req.url();
      if (!url.startsWith(site.origin + '/') && !url.startsWith('data:') && !url.startsWith('blob:')) outside.push(url);
    });
    context.on('page', (page) => watch(page));
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it('opens the home page and three deep pages', async () => {
    for (const [path, title] of [
      ['/', 'docs-appliance'],
      ['/quickstart', 'Quickstart'],
      ['/guides/components', 'Components showcase'],
      ['/guides/configuration', 'Configuration'],
    ] as const) {
      const page = await open(path);
      expect(await page.locator('h1.page-title').textContent()).toContain(title);
      await page.close();
    }
  });

  it('follows sidebar, tab, breadcrumb and previous/next links', async () => {
    const page = await open('/');
    await page.locator('.sidebar-nav a', { hasText: 'Quickstart' }).first().click();
    await page.waitForURL(site.origin + '/quickstart/');
    expect(await page.locator('.sidebar-nav [aria-current="page"]').textContent()).toContain('Quickstart');

    await page.locator('a[rel="next"]').click();
    await page.waitForLoadState('networkidle');
    const afterNext = new URL(page.url()).pathname;
    expect(afterNext).not.toBe('/quickstart/');
    await page.locator('a[rel="prev"]').click();
    await page.waitForURL(site.origin + '/quickstart/');

    await page.locator('.eyebrow a').first().click();
    await page.waitForLoadState('networkidle');
    expect(await page.locator('h1.page-title').count()).toBe(1);

    await page.locator('nav.tabs a', { hasText: 'API reference' }).first().click();
    await page.waitForLoadState('networkidle');
    expect(new URL(page.url()).pathname).toMatch(/^\/api-reference\//);
    await page.close();
  });

  it('finds every internal link of every page resolving to a 200', async () => {
    const sitemap = await (await fetch(site.origin + '/sitemap.xml')).text();
    const pages = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    expect(pages.length).toBeGreaterThan(8);
    const links = new Set<string>();
    for (const path of pages) {
      const html = await (await fetch(site.origin + path)).text();
      for (const m of html.matchAll(/(?:href|src)="(\/[^"#?]*)/g)) links.add(m[1]!);
    }
    const broken: string[] = [];
    for (const link of links) {
      const res = await fetch(site.origin + link, { method: 'HEAD' });
      if (res.status !== 200) broken.push(`${link} → ${res.status}`);
    }
    expect(broken).toEqual([]);
    expect(links.size).toBeGreaterThan(pages.length);
  });

  it('searches, lands on the clicked result, and the appliance reports the search and the click', async () => {
    const page = await open('/');
    await page.locator('[data-search-open]').first().click();
    await page.locator('#search-input').fill('rollback');
    const first = page.locator('.search-result-link').first();
    await first.waitFor();
    const target = new URL((await first.getAttribute('href'))!, site.origin).pathname;
    await first.click();
    await page.waitForURL(site.origin + target);
    expect(new URL(page.url()).pathname).toBe(target);

    const api = site.t.api(site.key);
    let report: { searches: { searchQuery: string; hits: number; ctr: number; topClickedPage: string | null }[]; totalSearches: number } | undefined;
    for (let i = 0; i < 50; i++) {
      const res = await api.get(`/v1/analytics/${TEST_PROJECT}/searches`);
      expect(res.status).toBe(200);
      report = res.body;
      if (report?.searches.some((s) => s.searchQuery === 'rollback' && s.topClickedPage)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(report!.searches).toContainEqual(expect.objectContaining({ searchQuery: 'rollback', hits: 1, ctr: 100, topClickedPage: target.replace(/(.)\/$/, '$1') }));
    expect(report!.totalSearches).toBe(1);
    await page.close();
  });

  it('switches tabs and code groups, opens accordions and copies a code block', async () => {
    const page = await open('/guides/components');
    for (const group of [page.locator('.c-tabs--content').first(), page.locator('.c-tabs--code').first()]) {
      const second = group.locator('[role="tab"]').nth(1);
      await second.click();
      expect(await second.getAttribute('aria-selected')).toBe('true');
      const panel = page.locator(`#${await second.getAttribute('aria-controls')}`);
      expect(await panel.isVisible()).toBe(true);
      const first = group.locator('[role="tab"]').first();
      expect(await first.getAttribute('aria-selected')).toBe('false');
      expect(await page.locator(`#${await first.getAttribute('aria-controls')}`).isVisible()).toBe(false);
    }

    const accordion = page.locator('details.c-accordion').first();
    expect(await accordion.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    await accordion.locator('summary').click();
    expect(await accordion.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);

    const copy = page.locator('[data-copy-code]').first();
    const block = copy.locator('xpath=ancestor::*[@data-code-block][1]');
    await copy.scrollIntoViewIfNeeded();
    await copy.click();
    await page.waitForFunction(() => document.querySelector('[data-copy-code][data-copied]') !== null);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    const code = (await block.locator('pre:visible code, pre:visible').first().innerText()).trim();
    expect(copied.trim()).toBe(code);
    expect(copied.length).toBeGreaterThan(5);
    await page.close();
  });

  it('toggles dark mode and keeps it across a reload', async () => {
    const page = await open('/quickstart');
    const before = await page.evaluate(() => document.documentElement.dataset.theme ?? 'light');
    await page.locator('[data-theme-toggle]').click();
    const after = await page.evaluate(() => document.documentElement.dataset.theme);
    expect(after).not.toBe(before);
    await page.reload({ waitUntil: 'networkidle' });
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(after);
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).not.toBe('rgb(255, 255, 255)');
    await page.close();
  });

  it('shows the banner until the reader dismisses it, then on no page, without a flash', async () => {
    // A context of its own: the dismissal lives in localStorage.
    const fresh = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    fresh.on('request', (req) => {
      if (!req.url().startsWith(site.origin + '/') && !req.url().startsWith('data:')) outside.push(req.url());
    });
    const page = await fresh.newPage();
    watch(page);
    await page.goto(site.origin + '/', { waitUntil: 'networkidle' });
    const banner = page.locator('.site-banner');
    expect(await banner.isVisible()).toBe(true);
    expect(await banner.textContent()).toContain('this site loads nothing from the internet');
    // The banner sits above the top bar and pushes it down while the page is at the top.
    const top = await page.evaluate(() => document.querySelector('.topbar')!.getBoundingClientRect().top);
    expect(top).toBeGreaterThan(20);
    await page.locator('[data-banner-dismiss]').click();
    expect(await banner.isVisible()).toBe(false);

    // On the next page the dismissal is applied by the head script, before anything is painted.
    await page.goto(site.origin + '/quickstart', { waitUntil: 'commit' });
    await page.waitForSelector('.site-banner', { state: 'attached' });
    expect(await page.evaluate(() => document.documentElement.hasAttribute('data-banner-dismissed'))).toBe(true);
    expect(await page.locator('.site-banner').isVisible()).toBe(false);
    await fresh.close();
  });

  it('fits a phone screen with the sidebar as a drawer', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    phone.on('request', (req) => {
      if (!req.url().startsWith(site.origin + '/') && !req.url().startsWith('data:')) outside.push(req.url());
    });
    const page = await phone.newPage();
    watch(page);
    await page.goto(site.origin + '/guides/components', { waitUntil: 'networkidle' });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    expect(await page.locator('#sidebar').isVisible()).toBe(false);
    await page.locator('[data-nav-toggle]').click();
    await expect.poll(() => page.locator('#sidebar').isVisible()).toBe(true);
    await phone.close();
  });

  it('made no request outside the site and logged no console error', () => {
    expect(outside).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
});
