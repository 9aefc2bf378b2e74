import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assistantRig, type AssistantRig } from '../assistant/helpers.js';
import { citingReply, startFakeModel } from '../assistant/fake-model.js';
import { launchBrowser } from './browser.js';
import { browserSuite, chromium } from './chromium.js';

/**
 * A reader asks the assistant in headless Chromium (issue 21): the fixture docs served by the
 * appliance, a fake streaming model on loopback; the answer streams in, its citation leads to the
 * page, nothing is fetched from outside and the site's CSP is not violated.
 */
let rig: AssistantRig;
let model: Awaited<ReturnType<typeof startFakeModel>>;
let browser: Browser;
let context: BrowserContext;
const outside: string[] = [];
const consoleErrors: string[] = [];

async function open(path: string): Promise<Page> {
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (err) => consoleErrors.push(`${page.url()}: ${err.message}`));
  const res = await page.goto(rig.siteOrigin + path, { waitUntil: 'networkidle' });
  expect(res?.status(), path).toBe(200);
  return page;
}

describe.skipIf(!chromium.path)(browserSuite('"Ask AI" in Chromium'), () => {
  beforeAll(async () => {
    // Slow chunks, so the test can see the answer arrive in pieces.
    model = await startFakeModel((req) => ({ ...citingReply(req), delayMs: 150 }));
    rig = await assistantRig({ assistant: { baseUrl: model.url, model: 'm' } });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.on('response', (res) => {
      if (res.status() >= 400) consoleErrors.push(`${res.status()} ${res.url()}`);
    });
    context.on('request', (req) => {
      if (!req.url().startsWith(rig.siteOrigin + '/') && !req.url().startsWith('data:')) outside.push(req.url());
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await rig?.close();
    await model?.close();
  });

  it('asks from the page panel with the keyboard, streams the answer and follows its citation', async () => {
    const page = await open('/install/');
    const launcher = page.locator('#assistant-launcher');
    await launcher.waitFor();
    await launcher.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('assistant-input');
    await page.keyboard.type('How quickly are refunds processed?');
    await page.keyboard.press('Enter');
    const answer = page.locator('.assistant-assistant .assistant-text').last();
    // Streaming: the first words show while the panel is still busy.
    await expect.poll(() => answer.textContent(), { timeout: 10_000 }).toContain('According');
    expect(await page.locator('#assistant-panel').getAttribute('aria-busy')).toBe('true');
    await expect.poll(() => page.locator('#assistant-panel').getAttribute('aria-busy'), { timeout: 10_000 }).toBe('false');
    expect(await answer.textContent()).toBe('According to the docs, see Billing.');
    const cite = answer.locator('a.assistant-cite');
    expect(await cite.getAttribute('href')).toBe('/billing/#refunds');
    expect(await page.locator('.assistant-sources a').getAttribute('href')).toBe('/billing/');
    await cite.click();
    await page.waitForURL(rig.siteOrigin + '/billing/#refunds');
    expect(await page.locator('h1.page-title').textContent()).toContain('Billing');
    await page.close();
  });

  it('asks from the search dialog, in dark mode too', async () => {
    const page = await open('/');
    const lightBg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
    await page.locator('[data-search-open]').first().click();
    await page.locator('#search-input').fill('What does error E4021 mean?');
    await page.locator('#assistant-from-search').click();
    const answer = page.locator('.assistant-assistant .assistant-text').last();
    await expect.poll(() => answer.textContent(), { timeout: 10_000 }).toContain('Troubleshooting');
    const panelBg = await page.evaluate(() => getComputedStyle(document.getElementById('assistant-panel')!).backgroundColor);
    expect(panelBg).not.toBe(lightBg);
    expect(await page.locator('#search-dialog').evaluate((d) => (d as HTMLDialogElement).open)).toBe(false);
    await page.close();
  });

  it('fetched nothing from outside and logged no error (the CSP held)', () => {
    expect(outside).toEqual([]);
    expect(consoleErrors, consoleErrors.join("\n")).toEqual([]);
  });
});

describe.skipIf(!chromium.path)(browserSuite('"Ask AI" absent with the assistant off'), () => {
  let offRig: AssistantRig;
  let offBrowser: Browser;
  beforeAll(async () => {
    offRig = await assistantRig();
    offBrowser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await offBrowser?.close();
    await offRig?.close();
  });

  it('shows no launcher and no search-dialog button', async () => {
    const page = await offBrowser.newPage();
    expect((await page.goto(offRig.siteOrigin + '/install/', { waitUntil: 'networkidle' }))?.status()).toBe(200);
    expect(await page.locator('#assistant-launcher, #assistant-from-search, #assistant-panel').count()).toBe(0);
    await page.close();
  });
});
