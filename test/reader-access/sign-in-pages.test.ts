/**
 * The sign-in pages dressed as the site (app/reader-access/site-look.ts, pages.ts): the look is read
 * from a real bundle's 404.html, the words come from renderer/i18n/sign-in-strings.ts in every
 * language, and the pages load nothing from elsewhere under the site's CSP.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { exportSite } from '../../renderer/index.js';
import { ROW_CODES } from '../../renderer/i18n/row-codes.js';
import { SIGN_IN_ROWS } from '../../renderer/i18n/sign-in-strings.js';
import { chooserPage, failedPage, jwtCallbackPage, passwordPage } from '../../app/reader-access/pages.js';
import { siteLook } from '../../app/reader-access/site-look.js';
import { hashPassword } from '../../app/reader-access/password.js';
import { tempSite } from '../renderer/load/site-fixtures.js';
import { sharedRenderPool } from '../helpers/render-pool.js';
import { authAppliance, HOST } from './helpers.js';

const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#123456"/></svg>';

async function exported(docs: Record<string, unknown>, extra: Record<string, string> = {}): Promise<string> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sign-in-look-'));
  await exportSite({ pool: sharedRenderPool(), sourceDir: tempSite({ 'docs.json': JSON.stringify(docs), 'index.mdx': '---\ntitle: Home\n---\nHi\n', ...extra }), outDir: out });
  return out;
}

describe('the sign-in pages look like the site', () => {
  it('takes the name, brand colours, appearance, language and logo (inlined) from the served bundle', async () => {
    const root = await exported(
      { name: 'Acme "Docs"', colors: { primary: '#ff5500', light: '#ffaa77', dark: '#aa3300' }, appearance: { default: 'dark', strict: true }, logo: { light: '/logo.svg', dark: '/logo.svg' }, navigation: { languages: [{ language: 'fr', pages: ['index'] }] } },
      { 'logo.svg': LOGO },
    );
    const site = { root };
    const look = siteLook(site, 'fallback');
    expect(look).toMatchObject({ name: 'Acme "Docs"', lang: 'fr', brand: { primary: '#ff5500', light: '#ffaa77', dark: '#aa3300' }, appearance: 'dark', strict: true });
    expect(look.logo?.light).toBe(`data:image/svg+xml;base64,${Buffer.from(LOGO).toString('base64')}`);
    // Read once per served site: a changed file is not read again for the same site object.
    fs.rmSync(path.join(root, '404.html'));
    expect(siteLook(site, 'fallback')).toBe(look);

    const html = passwordPage(look, '/x', 'Mauvais');
    expect(html).toContain('<html lang="fr" data-theme="dark" data-appearance="dark" data-appearance-strict="true">');
    expect(html).toContain('--brand:#ff5500;--brand-light:#ffaa77;--brand-dark:#aa3300');
    expect(html).toContain('<h1>Se connecter</h1>');
    expect(html).toContain('Cette documentation nécessite un mot de passe.');
    expect(html).toContain('<label for="da-password">Mot de passe</label>');
    expect(html).toContain('<title>Se connecter · Acme &quot;Docs&quot;</title>');
  }, 60_000);

  it('falls back to the defaults: no site, no 404.html, a logo that is not a bundle file; right to left for Arabic', async () => {
    expect(siteLook(undefined, 'Proj')).toEqual({ name: 'Proj', lang: 'en', brand: { primary: '#0d9373', light: '#55d799', dark: '#0d9373' }, appearance: 'system', strict: false });
    expect(siteLook({ root: fs.mkdtempSync(path.join(os.tmpdir(), 'empty-site-')) }, 'Proj').name).toBe('Proj');
    const root = await exported({ name: 'Arabic', navigation: { languages: [{ language: 'ar', pages: ['index'] }] }, logo: { light: 'https://cdn.example/logo.svg' } });
    const look = siteLook({ root }, 'x');
    expect(look.logo).toBeUndefined();
    expect(look.dir).toBe('rtl');
    const page = chooserPage(look, [{ name: 'Portal', href: 'https://p.example/login' }]);
    expect(page).toContain('<html lang="ar" dir="rtl" data-appearance="system">');
    expect(page).toContain('<span>Arabic</span>');
    expect(page).toContain(SIGN_IN_ROWS.ar.chooseSignIn);
    // A system-appearance site follows the OS before (or without) theme.js.
    expect(page).toContain('@media (prefers-color-scheme:dark){html:not([data-theme]){');
  }, 60_000);

  it('loads nothing from elsewhere: every src and href but the chooser\'s portals is same-origin or data:', () => {
    const look = siteLook(undefined, 'P');
    const pages = [passwordPage(look, '/a', 'err'), chooserPage(look, []), jwtCallbackPage(look, '/a'), failedPage(look, 'no')];
    for (const html of pages) {
      for (const m of html.matchAll(/\s(?:src|href|action)="([^"]*)"/g)) expect(m[1], m[0]).toMatch(/^(\/(?!\/)|data:)/);
      expect(html).not.toMatch(/@import|url\(/);
    }
  });

  it('serves them with the site CSP, no-store, and same-origin referrers (a no-referrer form posts Origin: null)', async () => {
    const a = authAppliance({ method: 'password', password: { hash: await hashPassword('pw') } });
    try {
    const res = await supertest(a.site).get('/login').set('Host', HOST).expect(200);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.text).toContain('<script src="/_/reader/theme.js"></script>');
    const theme = await supertest(a.site).get('/_/reader/theme.js').set('Host', HOST).expect(200);
    expect(theme.headers['content-type']).toMatch(/^text\/javascript/);
    expect(theme.text).toContain("localStorage.getItem('docs-theme')");
    } finally {
      await a.close();
    }
  });
});

describe('the sign-in words', () => {
  it('has every field, non-empty, in every row; English in ASCII; the other languages translated', () => {
    const fields = Object.keys(SIGN_IN_ROWS.en).sort();
    expect(fields.length).toBeGreaterThanOrEqual(12);
    expect(Object.keys(SIGN_IN_ROWS).sort()).toEqual([...ROW_CODES].sort());
    for (const code of ROW_CODES) {
      const row = SIGN_IN_ROWS[code] as unknown as Record<string, unknown>;
      expect(Object.keys(row).sort(), code).toEqual(fields);
      for (const f of fields) {
        expect(typeof row[f], `${code} ${f}`).toBe('string');
        expect((row[f] as string).trim(), `${code} ${f}`).not.toBe('');
        if (code !== 'en') expect(row[f], `${code} ${f} is the English text`).not.toBe(SIGN_IN_ROWS.en[f as keyof typeof SIGN_IN_ROWS.en]);
      }
    }
    for (const [f, v] of Object.entries(SIGN_IN_ROWS.en)) expect(/^[\x20-\x7e]*$/.test(v), f).toBe(true);
  });
});
