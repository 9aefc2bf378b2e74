import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../app/clock.js';
import { createTestAppliance, TEST_ORG, TEST_PROJECT } from '../helpers/appliance.js';
import { startOidcProvider } from '../console/oidc-provider.js';
import { createDocsRepo } from '../publish/helpers.js';
import { launchBrowser } from './browser.js';
import { browserSuite, chromium } from './chromium.js';

/**
 * The editor page's source/visual toggle in headless Chromium, for a writer signed in through the
 * console's single sign-on (a real OpenID provider on 127.0.0.1): typing and a toolbar button in
 * visual mode reach the source and the preview, the save commits only the edited block (bytes
 * checked in the bare repository) under the SSO user as author, a page of common components
 * saved with no edit commits nothing, and a page the visual mode refuses stays in source mode
 * with the refusal's line:column.
 */
const git = (args: string[]) => execFileSync('git', args, { encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } });
const show = (ref: string) => git(['--git-dir', repo.bare, 'show', ref]);

const EDITED = [
  '---',
  'title:   "Visual edit"',
  '---',
  '',
  '#  Spaced   heading',
  '',
  '* star list',
  '* kept as is',
  '',
  'Run the installer.',
  '',
  '<Note>',
  '    Indented   note.',
  '</Note>',
  '',
  'Last line, two trailing spaces  ',
  '',
].join('\n');

const COMPONENTS = `---
title: Components
---

Intro paragraph.

<Note>
  A note.
</Note>

<CardGroup cols={2}>
  <Card title="One" icon="star" href="/one">
    First card.
  </Card>
  <Card title="Two" href="/two">Second card.</Card>
</CardGroup>

<Tabs>
  <Tab title="npm">
    \`\`\`bash
    npm i
    \`\`\`
  </Tab>
  <Tab title="yarn">Use yarn.</Tab>
</Tabs>

<Steps>
  <Step title="Install">
    Run the installer.
  </Step>
  <Step title="Configure">Edit the file.</Step>
</Steps>

<AccordionGroup>
  <Accordion title="Why?">
    Because.
  </Accordion>
</AccordionGroup>
`;

const REFUSED = '---\ntitle: Refused\n---\n\nBefore.\n\n<!-- an HTML comment is not MDX -->\n\nAfter.\n';

let repo: ReturnType<typeof createDocsRepo>;
let t: ReturnType<typeof createTestAppliance>;
let admin: http.Server;
let idp: Awaited<ReturnType<typeof startOidcProvider>>;
let origin: string;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const outside: string[] = [];

const status = () => page.locator('#status').textContent();

async function openPage(path: string): Promise<void> {
  await page.getByRole('button', { name: path, exact: true }).click();
  await expect.poll(() => page.locator('#current-path').textContent(), { timeout: 20_000 }).toBe(path);
  await expect.poll(status, { timeout: 20_000 }).toMatch(new RegExp(`^Opened ${path.replace(/\./g, '\\.')} on main\\.`));
}

describe.skipIf(!chromium.path)(browserSuite('the editor page in visual mode, signed in with SSO, in Chromium'), () => {
  beforeAll(async () => {
    repo = createDocsRepo();
    repo.commit({ 'docs/guides/visual.mdx': EDITED, 'docs/components.mdx': COMPONENTS, 'docs/refused.mdx': REFUSED }, 'Pages for the visual mode');
    // The admin listener must be reachable at the redirect URI before the provider is configured with it.
    admin = http.createServer();
    await new Promise<void>((r) => admin.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(admin.address() as AddressInfo).port}`;
    idp = await startOidcProvider({ redirectUri: `${origin}/console/sso/callback`, users: { alice: { email: 'alice@corp.internal', groups: ['docs-writers'] } } });
    idp.as('alice');
    t = createTestAppliance({
      clock: systemClock,
      config: {
        renderer: { threads: 1 },
        console: {
          oidc: {
            issuer: idp.issuer,
            clientId: 'docs-console',
            allowHttp: true,
            scopes: 'openid email groups',
            redirectUrl: `${origin}/console/sso/callback`,
            groups: [{ group: 'docs-writers', orgId: TEST_ORG, role: 'write' }],
          },
        },
        projects: [{ id: TEST_PROJECT, orgId: TEST_ORG, name: 'Test docs', domain: 'docs.test.internal', repository: repo.bare, branch: 'main', publish: { source: 'git', docsPath: 'docs' } }],
      },
    });
    await t.start();
    admin.on('request', t.admin);
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.on('request', (req) => {
      const url = req.url();
      // The sign-in's only other host is the organization's own OpenID provider.
      if (!url.startsWith(origin + '/') && !url.startsWith(idp.issuer + '/') && !url.startsWith('about:') && !url.startsWith('data:')) outside.push(url);
    });
    page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`${page.url()}: ${err.message}`));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (admin) {
      await new Promise((r) => admin.close(r));
      admin.closeAllConnections();
    }
    await idp?.close();
    await t?.close();
  });

  it('signs in through the SSO provider and opens the editor', async () => {
    await page.goto(`${origin}/console/sign-in`);
    await page.locator('a[href="/console/sso/start"]').click();
    await page.waitForURL(`${origin}/console/orgs/${TEST_ORG}`, { timeout: 20_000 });
    await page.goto(`${origin}/console/projects/${TEST_PROJECT}/editor`);
    await expect.poll(() => page.locator('#current-path').textContent(), { timeout: 20_000 }).toBe('index.mdx');
    await page.frameLocator('#preview').getByText('Welcome to the tiny docs.').waitFor({ timeout: 20_000 });
  }, 60_000);

  it('toggles to visual on the current text; typing and a toolbar button reach the preview', async () => {
    await openPage('guides/visual.mdx');
    await page.getByRole('button', { name: 'Visual', exact: true }).click();
    expect(await page.locator('#mode-visual').getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator('#source-host').isHidden()).toBe(true);
    const paragraph = page.locator('.visual-content p', { hasText: 'Run the installer.' });
    await paragraph.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Typed visually.');
    await page.frameLocator('#preview').getByText('Typed visually.').waitFor({ timeout: 10_000 });
    // Select "visually" and make it bold with the toolbar.
    await page.keyboard.press('ArrowLeft');
    for (let i = 0; i < 'visually'.length; i++) await page.keyboard.press('Shift+ArrowLeft');
    await page.getByRole('button', { name: 'Bold (Ctrl-B)' }).click();
    await page.frameLocator('#preview').locator('strong', { hasText: 'visually' }).waitFor({ timeout: 10_000 });
    expect(await page.getByRole('button', { name: 'Save (unsaved changes)' }).count()).toBe(1);
  }, 60_000);

  it('switches back to source with the edit, then saves: only the edited block changed, authored by the SSO user', async () => {
    await page.getByRole('button', { name: 'Source', exact: true }).click();
    expect(await page.locator('#mode-source').getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator('#visual-host').isHidden()).toBe(true);
    const text = await page.locator('#source-host .cm-content').innerText();
    expect(text).toContain('Run the installer. Typed **visually**.');
    expect(text).toContain('#  Spaced   heading');
    await page.getByRole('button', { name: 'Save (unsaved changes)' }).click();
    await expect.poll(status, { timeout: 20_000 }).toMatch(/^Saved guides\/visual\.mdx: commit [0-9a-f]{10} on main\./);
    expect(show('main:docs/guides/visual.mdx')).toBe(EDITED.replace('Run the installer.', 'Run the installer. Typed **visually**.'));
    expect(git(['--git-dir', repo.bare, 'log', '-1', '--format=%an <%ae>', 'main']).trim()).toBe('alice@corp.internal <alice@corp.internal>');
    expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(1);
  }, 60_000);

  it('opens a page of common components in visual mode and saves it unedited: no commit, identical bytes', async () => {
    const head = repo.head();
    await openPage('components.mdx');
    await page.getByRole('button', { name: 'Visual', exact: true }).click();
    for (const name of ['Note', 'CardGroup', 'Card', 'Tabs', 'Tab', 'Steps', 'Step', 'AccordionGroup', 'Accordion']) {
      expect(await page.locator(`#visual-host .mdx-component[data-component="${name}"]`).count(), name).toBeGreaterThan(0);
    }
    expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(1);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(status, { timeout: 20_000 }).toBe('Saved components.mdx: no change to commit.');
    await page.getByRole('button', { name: 'Source', exact: true }).click();
    expect(repo.head()).toBe(head);
    expect(show('main:docs/components.mdx')).toBe(COMPONENTS);
  }, 60_000);

  it('a page the visual mode refuses shows the refusal with line:column and stays in source mode', async () => {
    await openPage('refused.mdx');
    await page.getByRole('button', { name: 'Visual', exact: true }).click();
    await expect.poll(status, { timeout: 10_000 }).toMatch(/^Visual mode refused refused\.mdx:7:2: .*The page stays in source mode\.$/);
    expect(await page.locator('#mode-source').getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator('#source-host').isVisible()).toBe(true);
    expect(await page.locator('#visual-host').isHidden()).toBe(true);
    expect(await page.locator('#visual-host *').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(1);
  }, 60_000);

  it('the visual mode opens the unsaved source text, and coming back leaves it as typed', async () => {
    await openPage('index.mdx');
    await page.getByRole('textbox', { name: 'Page source' }).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('Typed in source, not saved.\n');
    await page.getByRole('button', { name: 'Visual', exact: true }).click();
    await page.locator('.visual-content p', { hasText: 'Typed in source, not saved.' }).waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Source', exact: true }).click();
    expect(await page.locator('#source-host .cm-content').innerText()).toContain('Welcome to the tiny docs.\nTyped in source, not saved.');
    expect(await page.getByRole('button', { name: 'Save (unsaved changes)' }).count()).toBe(1);
  }, 60_000);

  it('ran with no script error, no CSP violation and nothing loaded from outside', () => {
    expect(problems).toEqual([]);
    expect(outside).toEqual([]);
  });
});
