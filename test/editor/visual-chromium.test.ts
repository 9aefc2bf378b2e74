import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../e2e/browser.js';
import { browserSuite, chromium } from '../e2e/chromium.js';

/**
 * The visual mode in headless Chromium: the module bundled by esbuild as the editor build does,
 * mounted on a page served with a CSP that forbids inline scripts and styles.
 */
const root = path.resolve(import.meta.dirname, '../..');
const PAGE = [
  '---',
  'title: "Visual"',
  '---',
  '',
  '# Hello   world',
  '',
  '* one',
  '* two',
  '',
  '<Note>',
  '  A note with [a link](/x).',
  '</Note>',
  '',
  '| a | b |',
  '|---|---|',
  '| 1 | 2 |',
  '',
  '<Tabs>',
  '  <Tab title="First">',
  '    ```bash',
  '    npm i',
  '    ```',
  '  </Tab>',
  '</Tabs>',
  'Trailing paragraph, no final newline  ',
].join('\r\n');

let browser: Browser;
let server: http.Server;
let origin = '';
let script = '';
let styles = '';
const pageErrors: string[] = [];

async function open(): Promise<Page> {
  const page = await browser.newPage();
  page.on('pageerror', (err) => pageErrors.push(err.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
  await page.goto(`${origin}/page`, { waitUntil: 'load' });
  return page;
}

async function mount(page: Page, source: string): Promise<void> {
  await page.evaluate((src) => {
    const w = window as unknown as { visual: { mountVisualEditor: (el: HTMLElement, s: string, o: object) => unknown }; handle: unknown; changes: string[] };
    w.changes = [];
    w.handle = w.visual.mountVisualEditor(document.getElementById('editor')!, src, { onChange: (s: string) => w.changes.push(s) });
  }, source);
}

const getSource = (page: Page): Promise<string> => page.evaluate(() => (window as unknown as { handle: { getSource(): string } }).handle.getSource());
const changes = (page: Page): Promise<string[]> => page.evaluate(() => (window as unknown as { changes: string[] }).changes);

describe.skipIf(!chromium.path)(browserSuite('visual mode in Chromium'), () => {
  beforeAll(async () => {
    const result = await build({
      stdin: {
        contents: "import { mountVisualEditor, checkVisual } from './app/editor/client/visual/index.ts'; window.visual = { mountVisualEditor, checkVisual };",
        resolveDir: root,
        loader: 'ts',
      },
      bundle: true,
      format: 'esm',
      outdir: path.join(root, 'dist-test-visual'),
      write: false,
      logLevel: 'silent',
    });
    script = result.outputFiles.find((f) => f.path.endsWith('.js'))!.text;
    styles = result.outputFiles.find((f) => f.path.endsWith('.css'))!.text;
    server = http.createServer((req, res) => {
      const headers = { 'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self'" };
      if (req.url === '/visual.js') res.writeHead(200, { ...headers, 'content-type': 'text/javascript' }).end(script);
      else if (req.url === '/visual.css') res.writeHead(200, { ...headers, 'content-type': 'text/css' }).end(styles);
      else
        res
          .writeHead(200, { ...headers, 'content-type': 'text/html; charset=utf-8' })
          .end('<!doctype html><html><head><link rel="stylesheet" href="/visual.css"><script type="module" src="/visual.js"></script></head><body><div id="editor"></div></body></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('gives back the page byte for byte when nothing was edited, and shows components, raw blocks and a labelled toolbar', async () => {
    const page = await open();
    await mount(page, PAGE);
    expect(await getSource(page)).toBe(PAGE);
    expect(await changes(page)).toEqual([]);
    expect(await page.locator('.mdx-component[data-component="Note"]').count()).toBe(1);
    expect(await page.locator('.mdx-component[data-component="Tab"] input[aria-label="Tab title"]').inputValue()).toBe('First');
    expect(await page.locator('.mdx-raw textarea').count()).toBe(2); // frontmatter and the table
    const labels = await page.locator('.visual-toolbar button').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')));
    expect(labels).toEqual(expect.arrayContaining(['Heading 1 (Ctrl-Alt-1)', 'Bold (Ctrl-B)', 'Link (Ctrl-K)', 'Bulleted list (Ctrl-Shift-8)']));
    expect(await page.locator('select[aria-label="Insert callout"]').count()).toBe(1);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('puts typed text, a shortcut and a raw-block edit into the source and leaves every other byte', async () => {
    const page = await open();
    await mount(page, PAGE);
    const heading = page.locator('.visual-content h1');
    await heading.click();
    await page.keyboard.press('End');
    await page.keyboard.type(' again');
    let expected = PAGE.replace('# Hello   world', '# Hello   world again');
    expect(await getSource(page)).toBe(expected);
    expect((await changes(page)).at(-1)).toBe(expected);

    // Select "note " (a double-click selects the word and its space) in the Note and make it bold with the shortcut.
    await page.locator('.mdx-component[data-component="Note"] p').click();
    await page.evaluate(() => {
      const { editor } = (window as unknown as { handle: { editor: { state: { doc: { descendants(f: (n: { isText: boolean; text?: string }, pos: number) => void): void } }; commands: { setTextSelection(r: { from: number; to: number }): boolean } } } }).handle;
      let from = -1;
      editor.state.doc.descendants((n, pos) => {
        if (from < 0 && n.isText && n.text?.startsWith('A note')) from = pos + 2;
      });
      editor.commands.setTextSelection({ from, to: from + 5 });
    });
    await page.keyboard.press('Control+b');
    expected = expected.replace('  A note with [a link](/x).', '  A **note** with [a link](/x).');
    expect(await getSource(page)).toBe(expected);

    await page.locator('.mdx-raw textarea').nth(1).fill('| a | b |\r\n|---|---|\r\n| 3 | 4 |');
    expect((await getSource(page)).includes('| 3 | 4 |')).toBe(true);
    expect((await getSource(page)).includes('| 1 | 2 |')).toBe(false);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('refuses broken MDX with its line:column and mounts nothing', async () => {
    const page = await open();
    const refusal = await page.evaluate(() => {
      const w = window as unknown as { visual: { mountVisualEditor: (el: HTMLElement, s: string, o: object) => unknown; checkVisual: (s: string) => unknown } };
      try {
        w.visual.mountVisualEditor(document.getElementById('editor')!, '# T\n\n<Note>\nopen\n', {});
        return { thrown: false };
      } catch (err) {
        return { thrown: true, name: (err as Error).name, message: (err as Error).message, check: w.visual.checkVisual('# T\n\n<Note>\nopen\n') };
      }
    });
    expect(refusal).toMatchObject({ thrown: true, name: 'VisualModeRefused', check: { ok: false, error: { line: 3, column: 1 } } });
    expect((refusal as { message: string }).message).toMatch(/3:1/);
    expect(await page.locator('#editor *').count()).toBe(0);
    await page.close();
  });
});
