/**
 * Reader sign-in in Chromium, one suite per method (issue 40, docs/reader-access.md), each against
 * a real appliance on a temp state dir whose project is published from its source directory and
 * served by the site listener on 127.0.0.1: a restricted page sends the reader to sign in; they
 * sign in and see the page with `{user.*}` filled in; a public page stays public; /logout ends it
 * and the restricted page sends them to sign in again. The sign-in pages are screenshotted
 * (docs/screenshots/reader-sign-in-*.png), light and dark.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../config/schema.js';
import { createTestAppliance, TEST_ORG, TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';
import { untilEnded } from '../publish/helpers.js';
import { startOidcProvider } from '../console/oidc-provider.js';
import { hashPassword } from '../../app/reader-access/password.js';
import { keyPair, signJwt } from '../reader-access/helpers.js';
import { launchBrowser } from './browser.js';
import { browserSuite, chromium } from './chromium.js';

type Auth = NonNullable<NonNullable<ConfigInput['projects']>[number]['auth']>;

// The suite takes its screenshots into the run's temp dir; `UPDATE_SCREENSHOTS=1` writes them to
// docs/screenshots instead (a test run must not change tracked files).
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? path.resolve(import.meta.dirname, '../../docs/screenshots') : path.join(os.tmpdir(), 'reader-sign-in-screenshots');
const TEAM_MARK = 'TEAMNOTE4417';
const ADMIN_MARK = 'RUNBOOK8803';
const LOGO = (fill: string) => `<svg xmlns="http://www.w3.org/2000/svg" width="150" height="32" viewBox="0 0 150 32"><rect x="0" y="4" width="24" height="24" rx="6" fill="#7c3aed"/><text x="32" y="23" font-family="sans-serif" font-size="19" font-weight="700" fill="${fill}">Reactor</text></svg>`;

/** A repository written for hosted Mintlify's authentication: one public group, the rest behind sign-in. */
function writeRepo(language?: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reader-sign-in-'));
  const w = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  const groups = [
    { group: 'Start', public: true, pages: ['index'] },
    { group: 'Team', pages: ['team/welcome'] },
    { group: 'Admin', pages: ['admin/runbook'] },
  ];
  w('docs.json', JSON.stringify({
    name: 'Reactor docs',
    theme: 'mint',
    colors: { primary: '#7c3aed', light: '#a78bfa', dark: '#6d28d9' },
    logo: { light: '/logo/light.svg', dark: '/logo/dark.svg' },
    navigation: language ? { languages: [{ language, groups }] } : { groups },
  }));
  w('logo/light.svg', LOGO('#101318'));
  w('logo/dark.svg', LOGO('#eceef1'));
  w('index.mdx', '---\ntitle: Home\n---\n\nWelcome to the reactor docs, open to everyone.\n');
  w('team/welcome.mdx', `---\ntitle: Team welcome\n---\n\nHello, {user.firstName ?? 'reader'}! ${TEAM_MARK}\n`);
  w('admin/runbook.mdx', `---\ntitle: Runbook\ngroups: ["admin"]\n---\n\nRestart the reactor. ${ADMIN_MARK}\n`);
  return dir;
}

let browser: Browser;
const closers: (() => Promise<void> | void)[] = [];

async function listen(handler?: http.RequestListener): Promise<{ server: http.Server; origin: string }> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise<void>((r) => {
    server.closeAllConnections();
    server.close(() => r());
  }));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** The appliance with the project at 127.0.0.1 (the listener's host), published, answering on `server`. */
async function publishedSite(server: http.Server, auth: Auth, language?: string): Promise<TestAppliance> {
  const t = createTestAppliance({
    config: { renderer: { threads: 1 }, projects: [{ id: TEST_PROJECT, orgId: TEST_ORG, name: 'Reactor docs', domain: '127.0.0.1', sourceDir: writeRepo(language), auth }] },
  });
  closers.push(() => t.close());
  await t.start();
  const key = t.createKey();
  const started = await t.api(key).post(`/v1/project/update/${TEST_PROJECT}`).expect(202);
  expect((await untilEnded(t, key, started.body.statusId, 90_000)).status).toBe('success');
  server.on('request', t.site);
  return t;
}

async function freshPage(dark = false, expectedStatus = new Set<number>()): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ colorScheme: dark ? 'dark' : 'light', viewport: { width: 900, height: 640 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // A CSP refusal (anything loaded from elsewhere) is a console error; failed loads are counted by
  // their responses below (the console only says "a status of 404", not of what).
  page.on('console', (m) => {
    if (m.type() === 'error' && !/^Failed to load resource/.test(m.text())) errors.push(m.text());
  });
  page.on('response', (r) => {
    const url = new URL(r.url());
    // The browser's own favicon probe, and the answers a test provokes on purpose, are not faults.
    if (r.status() >= 400 && url.pathname !== '/favicon.ico' && !expectedStatus.has(r.status())) errors.push(`${r.status()} ${r.url()}`);
  });
  return { context, page, errors };
}

const shoot = async (page: Page, name: string) => {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `reader-sign-in-${name}.png`) });
};

/** The restricted page as the reader sees it once personalization ran. */
async function expectTeamPage(page: Page, firstName: string) {
  await expect.poll(() => page.locator('#page-content').innerText()).toContain(`Hello, ${firstName}! ${TEAM_MARK}`);
}

/** A request of the browser context (its cookies), redirects not followed. */
const redirectOf = async (context: BrowserContext, url: string) => {
  const res = await context.request.get(url, { maxRedirects: 0 });
  return { status: res.status(), location: res.headers().location };
};

describe.skipIf(!chromium.path)(browserSuite('reader sign-in in Chromium'), () => {
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    for (const c of closers.reverse()) await c();
  });

  it('jwt: the portal signs the user data with Ed25519 and hands off to /login/jwt-callback#<jwt>; the fragment leaves the address bar', async () => {
    const key = keyPair();
    const { server, origin } = await listen();
    const handoffs: string[] = [];
    // The operator's login portal: its own sign-in (a button here), then Mintlify's handoff.
    const portal = await listen((req, res) => {
      const url = new URL(req.url ?? '/', 'http://portal');
      const redirect = url.searchParams.get('redirect') ?? '/';
      if (url.pathname === '/login') {
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Portal</title><h1>Corporate portal</h1><a id="continue" href="/continue?redirect=${encodeURIComponent(redirect)}">Continue as Jane</a>`);
        return;
      }
      if (url.pathname !== '/continue') {
        res.writeHead(404).end();
        return;
      }
      const now = Math.floor(Date.now() / 1000);
      const jwt = signJwt({ host: '127.0.0.1', exp: now + 30, expiresAt: now + 3600, groups: ['staff'], content: { firstName: 'Jane' } }, key.privateKey, { alg: 'EdDSA', typ: 'JWT' });
      const to = `${origin}/login/jwt-callback?redirect=${encodeURIComponent(redirect)}#${jwt}`;
      handoffs.push(to);
      res.writeHead(302, { location: to }).end();
    });
    await publishedSite(server, { method: 'jwt', jwt: { publicKeyFile: key.publicKeyFile, loginUrl: `${portal.origin}/login` } });

    const { context, page, errors } = await freshPage();
    await page.goto(`${origin}/team/welcome`);
    expect(page.url()).toBe(`${portal.origin}/login?redirect=${encodeURIComponent('/team/welcome')}`);
    // Watch every address the tab shows: after the callback page ran, no URL carries the token.
    const addresses: string[] = [];
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) addresses.push(f.url());
    });
    await page.click('#continue');
    await page.waitForURL(`${origin}/team/welcome`);
    await expectTeamPage(page, 'Jane');
    expect(handoffs).toHaveLength(1);
    expect(handoffs[0]).toContain('#ey');
    // The tab landed on the callback with the token in the fragment, and that is the only time it showed it.
    expect(addresses.filter((a) => a.includes('#'))).toEqual([handoffs[0]]);
    expect(addresses.at(-1)).toBe(`${origin}/team/welcome`);
    expect(await page.evaluate(() => location.hash)).toBe('');
    // The callback's history entry lost the token too.
    await page.goBack();
    expect(page.url()).not.toContain('#');

    await page.goto(`${origin}/`);
    expect(await page.locator('#page-content').innerText()).toContain('open to everyone');
    await page.goto(`${origin}/logout`);
    // /logout → /login → the portal (one loginUrl), not signed in at the docs any more.
    expect(page.url()).toBe(`${portal.origin}/login?redirect=%2F`);
    expect(await redirectOf(context, `${origin}/team/welcome`)).toEqual({ status: 302, location: `${portal.origin}/login?redirect=${encodeURIComponent('/team/welcome')}` });
    const anonymous = await freshPage();
    await anonymous.page.goto(`${origin}/`);
    expect(await anonymous.page.locator('#page-content').innerText()).toContain('open to everyone');
    expect(errors).toEqual([]);
    await context.close();
    await anonymous.context.close();
  }, 180_000);

  it('jwt with several portals: the chooser page looks like the site (screenshots, light and dark)', async () => {
    const key = keyPair();
    const { server, origin } = await listen();
    await publishedSite(server, { method: 'jwt', jwt: { publicKeyFile: key.publicKeyFile, loginUrls: [{ name: 'Staff portal', url: 'https://staff.portal.internal/login' }, { name: 'Partner portal', url: 'https://partners.portal.internal/login' }] } });
    for (const dark of [false, true]) {
      const { context, page, errors } = await freshPage(dark);
      await page.goto(`${origin}/team/welcome`);
      expect(new URL(page.url()).pathname).toBe('/login');
      expect(await page.locator('h1').innerText()).toBe('Sign in');
      const links = page.locator('a.choice');
      expect(await links.allInnerTexts()).toEqual(['Staff portal', 'Partner portal']);
      expect(await links.first().getAttribute('href')).toBe(`https://staff.portal.internal/login?redirect=${encodeURIComponent('/team/welcome')}`);
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(dark ? 'dark' : 'light');
      // The site's logo, inlined, the variant of the theme.
      const logo = page.locator(dark ? 'img.logo-dark' : 'img.logo-light');
      expect(await logo.isVisible()).toBe(true);
      expect(await logo.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(await logo.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(150);
      await shoot(page, `chooser-${dark ? 'dark' : 'light'}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 180_000);

  it('oauth: oidc-provider on 127.0.0.1; groups from the ID token (groupsClaim); a page of the admin group only for its member', async () => {
    const { server, origin } = await listen();
    const idp = await startOidcProvider({
      redirectUri: `${origin}/login/oauth-callback`,
      clientId: 'docs-readers',
      clientSecret: 'reader-secret',
      idTokenClaims: true,
      users: { ann: { email: 'ann@corp.internal', groups: 'admin, staff' }, ben: { email: 'ben@corp.internal', groups: 'staff' } },
    });
    closers.push(() => idp.close());
    await publishedSite(server, {
      method: 'oauth',
      oauth: { issuer: idp.issuer, clientId: 'docs-readers', clientSecret: 'reader-secret', allowHttp: true, scopes: ['openid', 'email', 'groups'], tokenClaims: { source: 'id_token', groupsClaim: 'groups', groupsDelimiter: ',' }, logoutUrl: `${origin}/` },
    });

    idp.as('ann');
    const ann = await freshPage();
    const visited: string[] = [];
    ann.page.on('request', (r) => {
      if (r.isNavigationRequest()) visited.push(r.url());
    });
    await ann.page.goto(`${origin}/admin/runbook`);
    expect(ann.page.url()).toBe(`${origin}/admin/runbook`);
    expect(visited.some((u) => u.startsWith(`${idp.issuer}/auth?`))).toBe(true);
    expect(visited.some((u) => u.startsWith(`${origin}/login/oauth-callback?`))).toBe(true);
    expect(await ann.page.locator('#page-content').innerText()).toContain(ADMIN_MARK);
    await ann.page.goto(`${origin}/team/welcome`);
    // No `content` from a provider without an Info API: `user.firstName` is undefined, the fallback shows.
    await expectTeamPage(ann.page, 'reader');
    expect(await ann.page.evaluate(async () => (await (await fetch('/_/reader/user')).json()) as unknown)).toMatchObject({ signedIn: true, groups: ['admin', 'staff'] });
    await ann.page.goto(`${origin}/`);
    expect(await ann.page.locator('#page-content').innerText()).toContain('open to everyone');
    await ann.page.goto(`${origin}/logout`);
    expect(ann.page.url()).toBe(`${origin}/`);
    expect(await redirectOf(ann.context, `${origin}/admin/runbook`)).toEqual({ status: 302, location: `/login?redirect=${encodeURIComponent('/admin/runbook')}` });
    expect(ann.errors).toEqual([]);
    await ann.context.close();

    // Ben is staff, not admin: signed in, the team page is his, the admin page is not there.
    idp.as('ben');
    const ben = await freshPage(false, new Set([404]));
    await ben.page.goto(`${origin}/team/welcome`);
    expect(ben.page.url()).toBe(`${origin}/team/welcome`);
    await expectTeamPage(ben.page, 'reader');
    const runbook = await ben.page.goto(`${origin}/admin/runbook`);
    expect(runbook?.status()).toBe(404);
    expect(await ben.page.content()).not.toContain(ADMIN_MARK);
    await ben.context.close();
  }, 180_000);

  it('password: the form in the site language and look; a wrong password shows an error, the right one signs in (screenshots)', async () => {
    const { server, origin } = await listen();
    await publishedSite(server, { method: 'password', password: { hash: await hashPassword('correct horse') } }, 'de');
    for (const dark of [false, true]) {
      const { context, page, errors } = await freshPage(dark, new Set([401]));
      await page.goto(`${origin}/team/welcome`);
      expect(page.url()).toBe(`${origin}/login?redirect=${encodeURIComponent('/team/welcome')}`);
      expect(await page.getAttribute('html', 'lang')).toBe('de');
      expect(await page.locator('h1').innerText()).toBe('Anmelden');
      expect(await page.locator('main p').first().innerText()).toBe('Diese Dokumentation erfordert ein Passwort.');
      // The brand colour on the button: the dark variant in light mode, the light one in dark mode.
      expect(await page.locator('button[type=submit]').evaluate((b) => getComputedStyle(b).backgroundColor)).toBe(dark ? 'rgb(167, 139, 250)' : 'rgb(109, 40, 217)');
      if (!dark) await shoot(page, 'password-light');
      await page.fill('input[type=password]', 'wrong horse');
      await page.click('button[type=submit]');
      expect(await page.locator('[role=alert]').innerText()).toBe('Dieses Passwort ist nicht richtig.');
      await shoot(page, `password-error-${dark ? 'dark' : 'light'}`);
      await page.fill('input[type=password]', 'correct horse');
      await page.click('button[type=submit]');
      await page.waitForURL(`${origin}/team/welcome`);
      // Signed in by password: `content` is {}, so `user.firstName` is undefined.
      await expectTeamPage(page, 'reader');
      await page.goto(`${origin}/`);
      expect(await page.locator('#page-content').innerText()).toContain('open to everyone');
      await page.goto(`${origin}/logout`);
      expect(page.url()).toBe(`${origin}/login`);
      await page.goto(`${origin}/team/welcome`);
      expect(page.url()).toBe(`${origin}/login?redirect=${encodeURIComponent('/team/welcome')}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  }, 180_000);
});
