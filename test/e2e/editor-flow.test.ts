import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../app/clock.js';
import { UPLOAD_IMAGE_TYPES } from '../../app/editor/upload.js';
import { createTestAppliance, OTHER_ORG, OTHER_PROJECT, TEST_ORG, TEST_PROJECT } from '../helpers/appliance.js';
import { serveGitOverHttp, type GitHttpServer } from '../helpers/git-http-backend.js';
import { createDocsRepo } from '../publish/helpers.js';
import { launchBrowser } from './browser.js';
import { browserSuite, chromium } from './chromium.js';

/**
 * The "done when" flow in headless Chromium, against a project whose `repository` is a
 * real Git repository served over HTTP by `git http-backend` on 127.0.0.1: a writer edits in
 * source mode, sees the preview, saves (the commit is on the branch of the served repository,
 * authored by the writer), deploys the branch's preview and opens it at its preview host on the
 * site listener, publishes and sees the served site change; a second writer's stale save is
 * refused with the diff and kept on a new branch; a read-role user cannot save.
 *
 * The served repository is read with async git (the http-backend server runs in this process,
 * so a synchronous git client against it would block the very server it talks to).
 */
const execFileAsync = promisify(execFile);
const git = async (args: string[]) => (await execFileAsync('git', args, { encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } })).stdout.trim();

const DOMAIN = 'docs.test.internal';
let repo: ReturnType<typeof createDocsRepo>;
let gitHost: GitHttpServer;
let remote: string;
let t: ReturnType<typeof createTestAppliance>;
let admin: http.Server;
let site: http.Server;
let origin: string;
let sitePort: number;
let browser: Browser;
const contexts: BrowserContext[] = [];
const problems: string[] = [];

async function signedInPage(key: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1024, height: 800 } });
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (err) => problems.push(`${page.url()}: ${err.message}`));
  page.on('console', (m) => {
    // The refusals this suite provokes (the stale save's 409, the read role's forced 403) are asserted where they happen.
    if (m.type() === 'error' && !/Failed to load resource: the server responded with a status of (409|403)/.test(m.text())) problems.push(`${page.url()}: ${m.text()}`);
  });
  await page.goto(`${origin}/console/sign-in`);
  await page.getByLabel('Admin key').fill(key);
  await page.getByLabel('Admin key').press('Enter');
  await page.waitForURL(`${origin}/console/orgs/${TEST_ORG}`);
  return page;
}

const editorUrl = (query = '') => `${origin}/console/orgs/${TEST_ORG}/projects/${TEST_PROJECT}/editor${query}`;
const status = (page: Page) => page.locator('#status').textContent();
const listen = async (app: http.RequestListener) => {
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return server;
};

let writer: Page;
let second: Page;

describe.skipIf(!chromium.path)(browserSuite('the editor flow: git over HTTP, preview deployment, publish, conflict, read role'), () => {
  beforeAll(async () => {
    repo = createDocsRepo();
    gitHost = await serveGitOverHttp(path.dirname(repo.bare));
    remote = gitHost.url(path.basename(repo.bare));
    t = createTestAppliance({
      clock: systemClock,
      config: {
        renderer: { threads: 1 },
        publish: { previewHostPattern: '{branch}.preview.{domain}', previewScheme: 'http' },
        projects: [
          { id: TEST_PROJECT, orgId: TEST_ORG, name: 'Test docs', domain: DOMAIN, repository: remote, branch: 'main', publish: { source: 'git', docsPath: 'docs' } },
          { id: OTHER_PROJECT, orgId: OTHER_ORG, name: 'Other docs', domain: 'docs.other.internal', sourceDir: repo.root },
        ],
      },
    });
    await t.start();
    admin = await listen(t.admin);
    site = await listen(t.site);
    origin = `http://127.0.0.1:${(admin.address() as AddressInfo).port}`;
    sitePort = (site.address() as AddressInfo).port;
    // Every host name resolves to this machine, so `{branch}.preview.{domain}` reaches the site listener.
    browser = await launchBrowser(['--host-resolver-rules=MAP * 127.0.0.1']);
    writer = await signedInPage(t.createKey(TEST_ORG));
    second = await signedInPage(t.createKey(TEST_ORG));
  }, 120_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    for (const s of [admin, site]) {
      if (!s) continue;
      await new Promise((r) => s.close(r));
      s.closeAllConnections();
    }
    await t?.close();
    await gitHost?.close();
    repo?.remove();
  });

  it('a writer edits in source mode, sees the preview, saves: the commit is on the branch of the served repository, by the writer', async () => {
    await writer.goto(editorUrl());
    await expect.poll(() => writer.locator('#current-path').textContent(), { timeout: 20_000 }).toBe('index.mdx');
    // The image picker offers what the server takes (it once offered SVG, always refused, and hid AVIF and ICO).
    expect(await writer.locator('#upload').getAttribute('accept')).toBe(UPLOAD_IMAGE_TYPES.join(','));
    expect(UPLOAD_IMAGE_TYPES).not.toContain('image/svg+xml');
    await writer.getByRole('button', { name: 'New branch' }).click();
    await writer.getByLabel('Branch name').fill('flow');
    await writer.getByRole('button', { name: 'Create branch' }).click();
    await expect.poll(() => status(writer), { timeout: 20_000 }).toMatch(/^Opened index\.mdx on flow\./);
    expect(await git(['ls-remote', '--heads', remote, 'flow'])).toContain('refs/heads/flow');

    // The second writer opens the same file on the same branch before the first one saves.
    await second.goto(editorUrl('?branch=flow&path=guides/intro.mdx'));
    await expect.poll(() => status(second), { timeout: 20_000 }).toMatch(/^Opened guides\/intro\.mdx on flow\./);

    await writer.getByRole('button', { name: 'guides/intro.mdx' }).click();
    await expect.poll(() => status(writer), { timeout: 20_000 }).toMatch(/^Opened guides\/intro\.mdx on flow\./);
    await writer.frameLocator('#preview').getByText('Run the installer.').waitFor({ timeout: 20_000 });
    await writer.getByRole('textbox', { name: 'Page source' }).click();
    await writer.keyboard.press('Control+End');
    await writer.keyboard.type('\nWritten over git http-backend.\n');
    await writer.frameLocator('#preview').getByText('Written over git http-backend.').waitFor({ timeout: 10_000 });
    await writer.keyboard.press('Control+S');
    await expect.poll(() => status(writer), { timeout: 20_000 }).toMatch(/^Saved guides\/intro\.mdx: commit [0-9a-f]{10} on flow\./);

    const short = /commit ([0-9a-f]{10})/.exec((await status(writer))!)![1]!;
    const head = (await git(['ls-remote', '--heads', remote, 'flow'])).split(/\s/)[0]!;
    expect(head.startsWith(short)).toBe(true);
    expect(await git(['--git-dir', repo.bare, 'show', 'flow:docs/guides/intro.mdx'])).toContain('Written over git http-backend.');
    expect(await git(['--git-dir', repo.bare, 'show', 'main:docs/guides/intro.mdx'])).not.toContain('Written over git http-backend.');
    const user = (await writer.evaluate(async (url) => (await (await fetch(url)).json()) as { user: { name: string } }, editorUrl('/api/state'))).user.name;
    expect(user).toMatch(/^key /);
    expect(await git(['--git-dir', repo.bare, 'log', '-1', '--format=%an', 'flow'])).toBe(user);
  }, 60_000);

  it('the branch preview deployment, opened at its preview host, shows the change', async () => {
    await writer.getByRole('button', { name: 'Deploy preview' }).click();
    await expect.poll(() => status(writer), { timeout: 20_000 }).toMatch(/^Preview of flow is building:/);
    const link = await writer.locator('#status a').getAttribute('href');
    expect(link).toBe(`http://flow.preview.${DOMAIN}/`);
    const preview = await writer.context().newPage();
    await expect
      .poll(
        async () => {
          const res = await preview.goto(`http://flow.preview.${DOMAIN}:${sitePort}/guides/intro`);
          return res?.status() === 200 && (await preview.getByText('Written over git http-backend.').count()) > 0;
        },
        { timeout: 40_000, interval: 500 },
      )
      .toBe(true);
    await preview.close();
  }, 60_000);

  it('publish merges the branch and the served site shows the change', async () => {
    writer.once('dialog', (d) => void d.accept());
    await writer.getByRole('button', { name: 'Publish' }).click();
    await expect.poll(() => status(writer), { timeout: 20_000 }).toMatch(/^Publishing \(.+\): merged as [0-9a-f]{10}\./);
    expect(await git(['--git-dir', repo.bare, 'show', 'main:docs/guides/intro.mdx'])).toContain('Written over git http-backend.');
    const served = await writer.context().newPage();
    await expect
      .poll(
        async () => {
          const res = await served.goto(`http://${DOMAIN}:${sitePort}/guides/intro`);
          return res?.status() === 200 && (await served.getByText('Written over git http-backend.').count()) > 0;
        },
        { timeout: 40_000, interval: 500 },
      )
      .toBe(true);
    await served.close();
  }, 60_000);

  it("a second writer's stale save is refused with the diff; saving it on a new branch keeps their text", async () => {
    await second.getByRole('textbox', { name: 'Page source' }).click();
    await second.keyboard.press('Control+End');
    await second.keyboard.type('\nThe second writer was here.\n');
    await second.keyboard.press('Control+S');
    const dialog = second.locator('#dialog-conflict');
    await dialog.waitFor({ state: 'visible', timeout: 20_000 });
    const diff = (await second.locator('#conflict-diff').textContent())!;
    expect(diff).toContain('-Written over git http-backend.');
    expect(diff).toContain('+The second writer was here.');
    expect(await second.locator('#conflict-by').textContent()).toMatch(/saved guides\/intro\.mdx in commit [0-9a-f]{10}/);
    const flowHead = (await git(['ls-remote', '--heads', remote, 'flow'])).split(/\s/)[0];

    await second.getByRole('button', { name: 'Save mine on a new branch' }).click();
    await second.getByLabel('Branch name').fill('flow-second');
    await second.getByRole('button', { name: 'Create branch' }).click();
    await expect.poll(() => status(second), { timeout: 20_000 }).toMatch(/^Saved guides\/intro\.mdx: commit [0-9a-f]{10} on flow-second\./);
    const kept = await git(['--git-dir', repo.bare, 'show', 'flow-second:docs/guides/intro.mdx']);
    expect(kept).toContain('The second writer was here.');
    // The first writer's branch is untouched.
    expect((await git(['ls-remote', '--heads', remote, 'flow'])).split(/\s/)[0]).toBe(flowHead);
    expect(await git(['--git-dir', repo.bare, 'show', 'flow:docs/guides/intro.mdx'])).not.toContain('The second writer was here.');
  }, 60_000);

  it('a read-role user sees the editor read-only, with no usable save control, and the API refuses a forced save', async () => {
    const reader = await signedInPage(t.createKey(TEST_ORG, { scopes: ['read'] }));
    await reader.goto(editorUrl());
    await expect.poll(() => reader.locator('#current-path').textContent(), { timeout: 20_000 }).toBe('index.mdx');
    await reader.frameLocator('#preview').getByText('Welcome to the tiny docs.').waitFor({ timeout: 20_000 });
    // The Save control is there but disabled (the toolbar keeps its layout), so it cannot be used; Ctrl+S does nothing.
    expect(await reader.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    await reader.getByRole('textbox', { name: 'Page source' }).click();
    await reader.keyboard.type('reader typing');
    await reader.keyboard.press('Control+S');
    expect(await reader.getByRole('textbox', { name: 'Page source' }).textContent()).not.toContain('reader typing');
    expect(await status(reader)).not.toMatch(/Sav/);
    expect(await reader.getByRole('textbox', { name: 'Page source' }).getAttribute('aria-readonly')).toBe('true');
    const before = await git(['ls-remote', '--heads', remote, 'main']);
    const forced = await reader.evaluate(async (base) => {
      const file = (await (await fetch(`${base}/api/file?branch=main&path=index.mdx`)).json()) as { sha: string };
      const csrf = (document.querySelector('#editor-config')?.textContent ?? '{}');
      const token = (JSON.parse(csrf) as { csrf?: string }).csrf ?? '';
      const res = await fetch(`${base}/api/file`, { method: 'PUT', headers: { 'content-type': 'application/json', 'x-csrf-token': token }, body: JSON.stringify({ branch: 'main', path: 'index.mdx', content: 'forced', baseSha: file.sha }) });
      return { status: res.status, body: (await res.json()) as { code?: string } };
    }, editorUrl());
    expect(forced.status).toBe(403);
    expect(await git(['ls-remote', '--heads', remote, 'main'])).toBe(before);
  }, 60_000);

  it('ran with no script error or CSP violation beyond the refusals it asserted', () => {
    expect(problems).toEqual([]);
  });
});
