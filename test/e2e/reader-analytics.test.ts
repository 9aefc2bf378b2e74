import type { Browser, BrowserContext } from 'playwright-core';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PROJECT } from '../helpers/appliance.js';
import { launchBrowser } from './browser.js';
import { browserSuite, chromium } from './chromium.js';
import { serveExampleSite, type ServedSite } from './served-site.js';

/**
 * Issue 20 in a real browser: a reader opens two pages of the exported example docs and rates
 * one with a comment; the reports count exactly two views for that reader (the page beacon
 * only: the site listener does not count a browser's page requests too) and the rating.
 */
let site: ServedSite;
let browser: Browser;
let context: BrowserContext;

// A reader's desktop Chrome. Headless Chromium announces itself as "HeadlessChrome", which the
// bot list rightly classifies as a bot, whose beacons are not counted.
const READER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

describe.skipIf(!chromium.path)(browserSuite('reader analytics in Chromium'), () => {
  beforeAll(async () => {
    site = await serveExampleSite();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, userAgent: READER_UA });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it('two pages opened and one rated with a comment: two views, one visitor, the rating', async () => {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    expect((await page.goto(`${site.origin}/quickstart`, { waitUntil: 'networkidle' }))?.status()).toBe(200);
    expect((await page.goto(`${site.origin}/guides/configuration`, { waitUntil: 'networkidle' }))?.status()).toBe(200);

    const control = page.locator('#feedback-toolbar');
    await control.waitFor({ state: 'visible' });
    expect(await control.textContent()).toContain('Was this page helpful?');
    await page.click('#feedback-thumbs-down');
    await page.locator('#feedback-form').waitFor({ state: 'visible' });
    await page.check('input[name="feedback-reason"][value="Update this documentation"]');
    await page.fill('#feedback-form-input', 'The port setting is missing.');
    await page.click('#feedback-form-submit');
    await page.locator('[data-feedback-thanks]').waitFor({ state: 'visible' });
    await page.waitForLoadState('networkidle');
    expect(await context.cookies()).toEqual([]);
    expect(errors).toEqual([]);

    const api = (url: string) => supertest(site.t.admin).get(url).set('Authorization', `Bearer ${site.key}`).expect(200);
    const views = (await api(`/v1/analytics/${TEST_PROJECT}/views`)).body;
    expect(views.totals).toEqual({ human: 2, ai: 0, total: 2 });
    expect(views.views).toEqual(
      expect.arrayContaining([
        { path: '/quickstart', human: 1, ai: 0, total: 1 },
        { path: '/guides/configuration', human: 1, ai: 0, total: 1 },
      ]),
    );
    expect((await api(`/v1/analytics/${TEST_PROJECT}/visitors`)).body.totals).toEqual({ human: 1, ai: 0, total: 1 });
    const feedback = (await api(`/v1/analytics/${TEST_PROJECT}/feedback`)).body;
    expect(feedback.feedback).toEqual([
      expect.objectContaining({ path: '/guides/configuration', source: 'contextual', helpful: false, status: 'pending', comment: 'Update this documentation\n\nThe port setting is missing.' }),
    ]);
    const byPage = (await api(`/v1/analytics/${TEST_PROJECT}/feedback/by-page`)).body;
    expect(byPage.feedback).toEqual([{ path: '/guides/configuration', thumbsUp: 0, thumbsDown: 1, code: 0, total: 1 }]);
  }, 60_000);
});
