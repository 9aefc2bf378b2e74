import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../app/clock.js';
import { createTestAppliance, OTHER_ORG, OTHER_PROJECT, TEST_ORG, TEST_PROJECT } from '../helpers/appliance.js';
import { createDocsRepo } from '../publish/helpers.js';
import { launchBrowser } from './browser.js';
import { browserSuite, chromium } from './chromium.js';

/**
 * The editor's source mode in headless Chromium against a started appliance whose test project
 * is published from a real bare Git repository: a writer signs in with a key, opens the editor,
 * creates a branch, opens a page, types, sees the preview change, saves with Ctrl+S, and the
 * commit is on that branch of the bare repository. No CSP violation, no script error, nothing
 * requested from outside the admin listener.
 */
const git = (args: string[]) => execFileSync('git', args, { encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } }).trim();

let repo: ReturnType<typeof createDocsRepo>;
let t: ReturnType<typeof createTestAppliance>;
let server: http.Server;
let origin: string;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const outside: string[] = [];

describe.skipIf(!chromium.path)(browserSuite('the editor in source mode, in Chromium'), () => {
  beforeAll(async () => {
    repo = createDocsRepo();
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
    const context = await browser.newContext({ viewport: { width: 1024, height: 800 } });
    context.on('request', (req) => {
      const url = req.url();
      if (!url.startsWith(origin + '/') && !url.startsWith('about:') && !url.startsWith('data:')) outside.push(url);
    });
    page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`${page.url()}: ${err.message}`));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (server) {
      await new Promise((r) => server.close(r));
      server.closeAllConnections();
    }
    await t?.close();
  });

  it('signs in with a key and opens the editor of the project on its default branch', async () => {
    const key = t.createKey(TEST_ORG);
    await page.goto(`${origin}/console/sign-in`);
    await page.getByLabel('Admin key').fill(key);
    await page.getByLabel('Admin key').press('Enter');
    await page.waitForURL(`${origin}/console/orgs/${TEST_ORG}`);
    await page.goto(`${origin}/console/projects/${TEST_PROJECT}/editor`);
    expect(new URL(page.url()).pathname).toBe(`/console/orgs/${TEST_ORG}/projects/${TEST_PROJECT}/editor`);
    await expect.poll(() => page.locator('#current-path').textContent(), { timeout: 20_000 }).toBe('index.mdx');
    expect(await page.locator('#branch-select').inputValue()).toBe('main');
    await page.frameLocator('#preview').getByText('Welcome to the tiny docs.').waitFor({ timeout: 20_000 });
  }, 60_000);

  it('creates a branch from the toolbar, by keyboard-reachable labelled controls', async () => {
    await page.getByRole('button', { name: 'New branch' }).click();
    await page.getByLabel('Branch name').fill('edit-e2e');
    await page.getByRole('button', { name: 'Create branch' }).click();
    await expect.poll(() => page.locator('#branch-select').inputValue(), { timeout: 20_000 }).toBe('edit-e2e');
    // The switch reopens the open file on the new branch; wait for it before opening another.
    await expect.poll(() => page.locator('#status').textContent(), { timeout: 20_000 }).toMatch(/^Opened index\.mdx on edit-e2e\./);
    expect(git(['--git-dir', repo.bare, 'branch', '--list', 'edit-e2e'])).toContain('edit-e2e');
  }, 60_000);

  it('opens a page, types in source mode and the preview changes', async () => {
    await page.getByRole('button', { name: 'guides/intro.mdx' }).click();
    await expect.poll(() => page.locator('#current-path').textContent(), { timeout: 20_000 }).toBe('guides/intro.mdx');
    await page.frameLocator('#preview').getByText('Run the installer.').waitFor({ timeout: 20_000 });
    await page.getByRole('textbox', { name: 'Page source' }).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nTyped in the browser editor.\n');
    await page.frameLocator('#preview').getByText('Typed in the browser editor.').waitFor({ timeout: 10_000 });
    expect(await page.getByRole('button', { name: 'Save (unsaved changes)' }).count()).toBe(1);
  }, 60_000);

  it('saves with Ctrl+S: the commit is on the branch of the bare repository', async () => {
    await page.keyboard.press('Control+S');
    await expect.poll(() => page.locator('#status').textContent(), { timeout: 20_000 }).toMatch(/^Saved guides\/intro\.mdx: commit [0-9a-f]{10} on edit-e2e\./);
    const file = git(['--git-dir', repo.bare, 'show', 'edit-e2e:docs/guides/intro.mdx']);
    expect(file).toContain('Typed in the browser editor.');
    expect(git(['--git-dir', repo.bare, 'show', 'main:docs/guides/intro.mdx'])).not.toContain('Typed in the browser editor.');
    const status = (await page.locator('#status').textContent())!;
    const short = /commit ([0-9a-f]{10})/.exec(status)![1]!;
    expect(git(['--git-dir', repo.bare, 'rev-parse', 'edit-e2e'])).toMatch(new RegExp(`^${short}`));
    expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(1);
  }, 60_000);

  it('ran with no script error, no CSP violation and nothing loaded from outside', () => {
    expect(problems).toEqual([]);
    expect(outside).toEqual([]);
  });
});
