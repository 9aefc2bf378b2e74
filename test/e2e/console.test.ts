import type { Browser, BrowserContext, Page } from 'playwright-core';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishFeature } from '../../app/publish/feature.js';
import { TEST_ORG, TEST_PROJECT } from '../helpers/appliance.js';
import { launchBrowser } from './browser.js';
import { browserSuite, chromium } from './chromium.js';
import { serveConsole, type ConsoleApp } from './console-app.js';

/**
 * The admin console in headless Chromium against a started appliance: key sign-in, an export's
 * progress bar watched to 100 %, a roll-back to an earlier publish by its button, a key created
 * and revoked, the analytics charts; no CSP violation, no script error, nothing requested from
 * outside the admin listener.
 */
let app: ConsoleApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const problems: string[] = [];
const outside: string[] = [];

describe.skipIf(!chromium.path)(browserSuite('the admin console in Chromium'), () => {
  beforeAll(async () => {
    app = await serveConsole();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.on('request', (req) => {
      if (!req.url().startsWith(app.origin + '/')) outside.push(req.url());
    });
    page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`${page.url()}: ${err.message}`));
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('signs in with a pasted key, by keyboard', async () => {
    await page.goto(`${app.origin}/console`);
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    // The first Tab reaches the skip link; the key field is labelled.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.getByLabel('Admin key').fill(app.key);
    await page.getByLabel('Admin key').press('Enter');
    await page.waitForURL(`${app.origin}/console/orgs/${TEST_ORG}`);
    expect(await page.locator('h1').textContent()).toBe('Test');
    expect(await page.locator('#table-projects').textContent()).toContain('Test docs');
  });

  it("starts an export and watches its progress bar reach 100 %", async () => {
    await page.goto(`${app.origin}/console/orgs/${TEST_ORG}/projects/${TEST_PROJECT}`);
    await page.getByRole('button', { name: 'Start an export' }).click();
    await page.waitForURL(/notice=export-started/);
    const bar = page.locator('progress[data-job]').first();
    await bar.waitFor();
    const jobId = await bar.getAttribute('data-job');
    // Rendered before the job finished: what follows is the page's script moving the bar.
    expect(Number(await bar.getAttribute('value'))).toBeLessThan(100);
    await page.waitForFunction(
      (id) => {
        const p = document.querySelector<HTMLProgressElement>(`progress[data-job="${id}"]`);
        return p !== null && p.value === 100;
      },
      jobId,
      { timeout: 90_000, polling: 100 },
    );
    // The script reloads the finished job's row with its bundle button.
    await page.getByRole('button', { name: `Download ${jobId}` }).waitFor({ timeout: 10_000 });
    expect(await page.locator(`[data-job-pct="${jobId}"]`).textContent()).toBe('100 %');
    expect(app.t.ctx.stores.exportJobs.get(jobId!)!.status).toBe('completed');
  }, 120_000);

  it('rolls back to the earlier publish with its "Roll back" button, and the overview shows the version served', async () => {
    const [first, second] = app.publishes as [(typeof app.publishes)[number], (typeof app.publishes)[number]];
    const projectPage = `${app.origin}/console/orgs/${TEST_ORG}/projects/${TEST_PROJECT}`;
    await page.goto(projectPage);
    // The second publish is served: only the first is offered.
    expect(await page.getByRole('button', { name: `Roll back to ${second.id}` }).count()).toBe(0);
    const button = page.getByRole('button', { name: `Roll back to ${first.id}` });
    expect(await button.textContent()).toBe('Roll back');
    await button.click();
    await page.waitForURL(/notice=rolled-back/);
    expect(await page.getByRole('status').textContent()).toBe('Roll-back started.');
    const service = (app.t.features.find((f) => f.name === 'publish') as PublishFeature).service;
    await service.idle();
    expect(service.history(TEST_PROJECT, 1)[0]).toMatchObject({ kind: 'rollback', trigger: 'console', status: 'success', version: first.version });
    const served = await supertest(app.t.site).get('/').set('Host', 'docs.test.internal').expect(200);
    expect(served.text).toContain('Welcome to the tiny docs.');
    // Now the second is the one to go back to.
    await page.goto(projectPage);
    await page.getByRole('button', { name: `Roll back to ${second.id}` }).waitFor();
    expect(await page.getByRole('button', { name: `Roll back to ${first.id}` }).count()).toBe(0);
    await page.goto(`${app.origin}/console/orgs/${TEST_ORG}`);
    const row = page.locator('#table-projects tbody tr', { hasText: 'Test docs' });
    expect(await row.locator('td').nth(3).textContent()).toBe(first.version);
    expect(await row.locator('td').nth(5).textContent()).toBe('published');
    expect(await page.getByRole('region', { name: 'Served site' }).textContent()).toContain(`Test docs: version ${first.version}, served since`);
    // The age is relative, with the exact time on hover.
    const age = page.getByRole('region', { name: 'Served site' }).locator('time');
    expect(await age.textContent()).toMatch(/ago$|^just now$/);
    expect(await age.getAttribute('title')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
  });

  it('creates a key (shown once) and revokes it', async () => {
    await page.goto(`${app.origin}/console/orgs/${TEST_ORG}/keys`);
    await page.getByLabel('write').check();
    await page.getByLabel('Label (optional)').fill('browser-made');
    await page.getByLabel('Expires in days (empty: never)').fill('7');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.locator('#created-key').inputValue();
    expect(key).toMatch(/^mint_[0-9A-Za-z]{40}$/);
    const record = app.t.ctx.stores.adminKeys.list(TEST_ORG).find((k) => k.label === 'browser-made')!;
    expect(record.scopes).toEqual(['read', 'write']);
    await page.getByRole('button', { name: `Revoke ${record.id}` }).click();
    await page.waitForURL(/notice=key-revoked/);
    const row = page.locator('#table-keys tr', { hasText: record.id });
    expect(await row.textContent()).toContain('revoked');
    expect(app.t.ctx.stores.adminKeys.check(key)).toEqual({ ok: false, reason: 'revoked' });
  });

  it('opens the search analytics charts', async () => {
    await page.goto(`${app.origin}/console/orgs/${TEST_ORG}/projects/${TEST_PROJECT}`);
    await page.getByRole('link', { name: 'Search analytics' }).click();
    const chart = page.locator('svg#chart-searches');
    await chart.waitFor();
    expect(await chart.isVisible()).toBe(true);
    expect(await page.locator('svg#chart-searches rect.bar').count()).toBe(30);
    expect(await page.locator('svg#chart-terms rect.bar').count()).toBe(8);
    expect(await page.locator('svg#chart-gaps rect.bar').count()).toBe(2);
    expect(await page.getByRole('img', { name: /Searches per day/ }).count()).toBe(1);
    const box = await chart.boundingBox();
    expect(box!.width).toBeGreaterThan(300);
  });

  it('stays usable on a phone in the dark theme', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark', isMobile: true });
    const p = await phone.newPage();
    await p.goto(`${app.origin}/console/sign-in`);
    await p.getByLabel('Admin key').fill(app.key);
    await p.getByRole('button', { name: 'Sign in with key' }).click();
    await p.waitForURL(`${app.origin}/console/orgs/${TEST_ORG}`);
    // Nothing wider than the screen but the tables' own scroll areas.
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const bg = await p.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).toBe('rgb(18, 19, 24)');
    await phone.close();
  });

  it('met no CSP violation, script error or outside request', () => {
    expect(problems).toEqual([]);
    expect(outside).toEqual([]);
  });
});
