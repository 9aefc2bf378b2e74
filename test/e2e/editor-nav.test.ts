import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../app/clock.js';
import { createTestAppliance, OTHER_ORG, OTHER_PROJECT, TEST_ORG, TEST_PROJECT } from '../helpers/appliance.js';
import { normaliseDocsJson } from '../../renderer/load/normalise-docs-json.js';
import { createDocsRepo } from '../publish/helpers.js';
import { launchBrowser } from './browser.js';
import { browserSuite, chromium } from './chromium.js';

/**
 * The navigation panel in headless Chromium against a started appliance whose test project is
 * published from a real bare Git repository: a writer opens the panel, adds a group, adds a page
 * to it from the file tree's pages, moves the group up with the keyboard and saves. The committed
 * docs.json is valid, has the change, and the text outside the navigation is unchanged.
 */
const git = (args: string[]) => execFileSync('git', args, { encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } }).trim();

let repo: ReturnType<typeof createDocsRepo>;
let t: ReturnType<typeof createTestAppliance>;
let server: http.Server;
let origin: string;
let browser: Browser;
let page: Page;
let before = '';
const problems: string[] = [];

describe.skipIf(!chromium.path)(browserSuite('the navigation editor, in Chromium'), () => {
  beforeAll(async () => {
    repo = createDocsRepo();
    // A page the navigation does not list yet: what "Add page" offers.
    repo.commit({ 'docs/guides/extra.mdx': '---\ntitle: Extra\n---\n\nMore.\n' }, 'An unlisted page');
    before = git(['-C', repo.bare, 'show', 'main:docs/docs.json']);
    t = createTestAppliance({
      clock: systemClock,
      config: {
        renderer: { threads: 1 },
        projects: [
          { id: TEST_PROJECT, orgId: TEST_ORG, name: 'Test docs', domain: 'docs.test.internal', repository: repo.bare, branch: 'main', publish: { source: 'git', docsPath: 'docs' } },
          { id: OTHER_PROJECT, orgId: OTHER_ORG, name: 'Other docs', domain: 'docs.other.internal', sourceDir: repo.root },
        ],
      },
    });
    await t.start();
    server = http.createServer(t.admin);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on('pageerror', (err) => problems.push(`${page.url()}: ${err.message}`));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (server) {
      await new Promise((r) => server.close(r));
      server.closeAllConnections();
    }
    await t?.close();
    repo?.remove();
  });

  it('adds a group with a page, moves it up, moves a page into it, saves: the committed docs.json is valid and changed only there', async () => {
    const key = t.createKey(TEST_ORG);
    await page.goto(`${origin}/console/sign-in`);
    await page.getByLabel('Admin key').fill(key);
    await page.getByLabel('Admin key').press('Enter');
    await page.waitForURL(`${origin}/console/orgs/${TEST_ORG}`);
    await page.goto(`${origin}/console/orgs/${TEST_ORG}/projects/${TEST_PROJECT}/editor`);
    await expect.poll(() => page.locator('#current-path').textContent(), { timeout: 20_000 }).toBe('index.mdx');

    await page.getByRole('button', { name: 'Navigation', exact: true }).click();
    const panel = page.locator('#nav-panel');
    await panel.getByRole('button', { name: 'Rename: group Start' }).waitFor({ timeout: 20_000 });

    await panel.getByRole('button', { name: 'Add group', exact: true }).click();
    await panel.getByLabel(/Name of the new group/).fill('Reference');
    await panel.getByLabel(/Name of the new group/).press('Enter');
    await panel.getByRole('button', { name: 'Add page: group Reference' }).click();
    await panel.getByLabel('Page to add to Reference').selectOption('guides/extra');
    await panel.getByRole('button', { name: 'OK' }).click();
    await panel.locator('code', { hasText: 'guides/extra' }).waitFor();

    // Keyboard only: focus the group's "Move up" and press Enter; focus follows the moved group.
    await panel.getByRole('button', { name: 'Move up: group Reference' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => panel.locator('.nav-tree > li .nav-label').first().textContent()).toBe('Reference');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Move down: group Reference');

    // A page moves into another group through the same inline form.
    await panel.getByRole('button', { name: 'Move to group: page guides/intro' }).click();
    await panel.getByLabel('Group to move guides/intro to').selectOption({ label: 'Reference' });
    await panel.getByRole('button', { name: 'OK' }).click();
    await expect.poll(() => panel.locator('.nav-tree > li').first().locator('code').allTextContents()).toEqual(['guides/extra', 'guides/intro']);

    await panel.getByRole('button', { name: /^Save navigation/ }).click();
    await expect.poll(() => panel.locator('.nav-note').textContent(), { timeout: 20_000 }).toMatch(/^Saved the navigation: commit [0-9a-f]{10} on main\.$/);

    const after = git(['-C', repo.bare, 'show', 'main:docs/docs.json']);
    const json = JSON.parse(after) as Record<string, unknown> & { navigation: { groups: { group: string; pages: string[] }[] } };
    expect(() => normaliseDocsJson(json, 'docs.json')).not.toThrow();
    expect(json.navigation.groups).toEqual([
      { group: 'Reference', pages: ['guides/extra', 'guides/intro'] },
      { group: 'Start', pages: ['index'] },
    ]);
    // Everything before the navigation is the same text; every other key is as it was.
    const head = (s: string) => s.slice(0, s.indexOf('"navigation"'));
    expect(head(after)).toBe(head(before));
    const { navigation: _a, ...restAfter } = json;
    const { navigation: _b, ...restBefore } = JSON.parse(before) as Record<string, unknown>;
    expect(restAfter).toEqual(restBefore);
    expect(Object.keys(json)).toEqual(Object.keys(JSON.parse(before) as object));
    expect(git(['-C', repo.bare, 'log', '-1', '--format=%s', 'main'])).toBe('Update navigation');
    expect(problems).toEqual([]);
  }, 90_000);
});
