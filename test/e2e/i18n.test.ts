import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSite } from '../../renderer/index.js';
import { pythonStaticServer, type StaticServer } from '../helpers/static-server.js';
import { tempSite } from '../renderer/load/site-fixtures.js';
import { launchBrowser } from './browser.js';
import { browserSuite, chromium } from './chromium.js';
import { sharedRenderPool } from '../helpers/render-pool.js';

/**
 * The chrome in the reader's language in Chromium (issue 39 class 8): on the Japanese pages of an
 * en/ja/fr site the scripts write Japanese into the search dialog, the playground and the code
 * copy button, reading the words the page carries (<html data-strings>).
 */
let server: StaticServer;
let browser: Browser;

const page = (title: string, body: string) => `---\ntitle: ${title}\n---\n\n${body}\n`;

async function open(p: string): Promise<Page> {
  const tab = await browser.newPage();
  const res = await tab.goto(server.origin + p, { waitUntil: 'networkidle' });
  expect(res?.status(), p).toBe(200);
  return tab;
}

describe.skipIf(!chromium.path)(browserSuite('the chrome in the page language in Chromium'), () => {
  beforeAll(async () => {
    const codes = ['en', 'ja', 'fr'];
    const files: Record<string, string> = {
      'docs.json': JSON.stringify({ name: 'x', navigation: { languages: codes.map((code) => ({ language: code, pages: [`${code}/index`, `${code}/create`] })) } }),
    };
    for (const c of codes) {
      files[`${c}/index.mdx`] = page(`Home ${c}`, 'Rollout guide.\n\n```js\nconsole.log(1);\n```');
      files[`${c}/create.mdx`] = page('Create', '<ParamField path="id" type="string" required>Pet id</ParamField>').replace('title: Create\n', 'title: Create\napi: POST https://api.example.test/v1/pets/{id}\n');
    }
    const outDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docs-i18n-e2e-')), 'site');
    await exportSite({ pool: sharedRenderPool(), sourceDir: tempSite(files), outDir });
    server = await pythonStaticServer(outDir);
    browser = await launchBrowser();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    server?.close();
  });

  it('labels the search dialog, its status and the code copy button in Japanese', async () => {
    const tab = await open('/ja/');
    await tab.locator('[data-search-open]').first().click();
    const dialog = tab.locator('#search-dialog');
    await dialog.waitFor();
    expect(await dialog.locator('.search-close-text').textContent()).toBe('キャンセル');
    expect(await dialog.locator('.search-hints').textContent()).toContain('移動');
    await tab.locator('#search-input').fill('zzqxv');
    await expect.poll(() => tab.locator('#search-status').textContent(), { timeout: 10_000 }).toBe('「zzqxv」に一致する結果はありません');
    await tab.locator('#search-input').fill('rollout');
    await expect.poll(() => tab.locator('#search-status').textContent(), { timeout: 10_000 }).toMatch(/^\d+件の結果$/);
    await tab.keyboard.press('Escape');
    expect(await tab.locator('.c-code__copy').first().getAttribute('aria-label')).toBe('コードをコピー');
    await tab.close();
  });

  it('labels the playground in Japanese', async () => {
    const tab = await open('/ja/create/');
    await tab.locator('.pg-try').click();
    const dialog = tab.locator('dialog.pg-dialog');
    await dialog.waitFor();
    expect(await tab.locator('.pg-try').textContent()).toBe('試してみる');
    expect(await dialog.locator('.pg-send').textContent()).toBe('送信');
    expect(await dialog.locator('.pg-close').getAttribute('aria-label')).toBe('閉じる');
    expect(await dialog.locator('.pg-target__label').textContent()).toBe('送信先 ');
    expect(await dialog.textContent()).toContain('パスパラメーター');
    expect(await dialog.textContent()).toContain('必須');
    // Sending with the required field empty explains it in Japanese.
    await dialog.locator('.pg-send').click();
    await expect.poll(() => dialog.locator('.pg-error strong').first().textContent(), { timeout: 10_000 }).toBe('必須の値がありません');
    expect(await dialog.locator('.pg-error p').first().textContent()).toBe('入力してください: id');
    await tab.close();
  });

  it('keeps the English words on the English pages', async () => {
    const tab = await open('/en/create/');
    expect(await tab.locator('.pg-try').textContent()).toBe('Try it');
    await tab.close();
  });
});
