import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import type { Browser, Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEditorPreview, type EditorPreview } from '../../app/editor/preview.js';
import { DEFAULT_SITE_CSP } from '../../renderer/csp.js';
import { launchBrowser } from '../e2e/browser.js';
import { browserSuite, chromium } from '../e2e/chromium.js';
import { sharedRenderPool } from '../helpers/render-pool.js';

const ISLANDS = path.resolve(import.meta.dirname, '../fixtures/sites/islands');
const BASE = '/ed/preview-assets/';

/**
 * The preview as the editor shows it: its HTML in an iframe's srcdoc inside a page served with the
 * site's policy (a srcdoc frame inherits its parent's), every asset from `asset()` under the base.
 */
describe.skipIf(!chromium.path)(browserSuite('the editor preview in Chromium'), () => {
  let tmp: string;
  let root: string;
  let preview: EditorPreview;
  let server: ReturnType<express.Express['listen']>;
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'editor-preview-browser-'));
    root = path.join(tmp, 'site');
    fs.cpSync(ISLANDS, root, { recursive: true });
    preview = createEditorPreview({ pool: sharedRenderPool(1), assetBase: () => BASE });
    const app = express();
    app.use((_req, res, next) => {
      res.setHeader('Content-Security-Policy', DEFAULT_SITE_CSP);
      next();
    });
    app.get('/ed/', (_req, res) => {
      res.type('html').send('<!doctype html><html><head><title>editor</title></head><body><iframe id="preview" title="Preview" style="width:1200px;height:900px"></iframe></body></html>');
    });
    app.use('/ed/preview-assets', async (req, res) => {
      const file = await preview.asset('p', root, req.path.slice(1));
      if (!file) return void res.status(404).end();
      res.type(file.type).send(file.body);
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => server?.close(r));
    await preview?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function show(html: string): Promise<{ frame: Frame; violations: string[] }> {
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
    page.on('requestfailed', (r) => violations.push(`failed: ${r.url()}`));
    page.on('response', (r) => {
      // site.js asks the site's own listener whether an assistant is on (`/_/assistant`); in the
      // editor there is none to ask, and the page treats the 404 as "off".
      if (r.status() >= 400 && new URL(r.url()).pathname !== '/_/assistant') violations.push(`${r.status()}: ${r.url()}`);
    });
    await page.goto(`${origin}/ed/`);
    await page.evaluate((srcdoc) => {
      (document.getElementById('preview') as HTMLIFrameElement).srcdoc = srcdoc;
    }, html);
    const handle = await page.waitForSelector('#preview');
    const frame = (await handle.contentFrame()) as Frame;
    await frame.waitForLoadState('load');
    return { frame, violations };
  }

  it('shows the page with the site’s styles, its components running, in the site’s dark mode', async () => {
    const source = fs.readFileSync(path.join(root, 'index.mdx'), 'utf8');
    const r = await preview.render({ projectId: 'p', docsRoot: root, relPath: 'index.mdx', content: `${source}\n\nTyped in the editor.\n`, dark: true });
    expect(r.errors).toEqual([]);
    const { frame, violations } = await show(r.html);
    await frame.waitForSelector('text=Typed in the editor.');
    // Every stylesheet loaded (same origin: its rules are readable).
    const sheets = await frame.evaluate(() => Array.from(document.styleSheets).map((s) => ({ href: s.href, rules: s.cssRules.length })));
    expect(sheets.filter((s) => s.href).length).toBeGreaterThan(2);
    for (const s of sheets.filter((x) => x.href)) expect(s.rules, s.href ?? '').toBeGreaterThan(0);
    // The component hydrated and answers a click.
    await frame.waitForSelector('text=Running in the browser');
    await frame.click('.counter-button');
    await frame.waitForSelector('text=Moved from 2');
    // theme-init.js kept the forced theme: the site's own dark styles apply.
    expect(await frame.evaluate(() => document.documentElement.getAttribute('data-theme'))).toBe('dark');
    const background = await frame.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [red, green, blue] = (background.match(/\d+/g) ?? []).map(Number);
    expect((red ?? 255) + (green ?? 255) + (blue ?? 255)).toBeLessThan(200);
    expect(violations).toEqual([]);
  });

  it('shows an MDX error above the last good render, never a blank frame', async () => {
    const good = await preview.render({ projectId: 'p', docsRoot: root, relPath: 'other.mdx', content: 'Good words.\n' });
    expect(good.errors).toEqual([]);
    const bad = await preview.render({ projectId: 'p', docsRoot: root, relPath: 'other.mdx', content: 'Good words.\n\n<Card>\n' });
    const { frame } = await show(bad.html);
    const alert = await frame.waitForSelector('[role="alert"]');
    expect(await alert.textContent()).toContain(`other.mdx:${bad.errors[0]?.line}`);
    await frame.waitForSelector('text=Good words.');
  });
});
