import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';

/**
 * Reader search measured in Chromium (issue 18): an exported site served locally with gzip (as
 * the appliance's site listener sends JSON, JS and HTML), a fresh browser profile (cold cache),
 * one page of the site opened, then the search dialog opened and a query typed. Measured: bytes
 * transferred for the search (search.js, the library, the index files: performance resource
 * timing's transferSize) and the time from the keystroke to the first result on screen.
 */

export interface SearchFigures {
  query: string;
  bytes: number;
  files: number;
  ms: number;
  results: number;
  firstUrl: string;
  /** Widened: how many results carry a scope label, and where the reader's own page ranks. */
  wide?: { results: number; labelled: number; firstUrl: string; firstLabel: string };
}

const TYPES: Record<string, string> = { html: 'text/html; charset=utf-8', js: 'text/javascript', css: 'text/css', json: 'application/json', svg: 'image/svg+xml', woff2: 'font/woff2', png: 'image/png' };

export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));

/** Serve a bundle's files (`files.get(path)`), gzip-compressing text as the site listener does. */
export async function serveFiles(files: { get(path: string): Uint8Array | undefined }): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    let p = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '');
    if (p === '' || p.endsWith('/')) p += 'index.html';
    let body: Uint8Array | undefined;
    try {
      body = files.get(p);
    } catch {
      body = undefined;
    }
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    const ext = p.slice(p.lastIndexOf('.') + 1);
    res.setHeader('content-type', TYPES[ext] ?? 'application/octet-stream');
    if (/gzip/.test(String(req.headers['accept-encoding'] ?? '')) && /^(html|js|css|json|svg)$/.test(ext)) {
      res.setHeader('content-encoding', 'gzip');
      body = zlib.gzipSync(body, { level: 6 });
    }
    res.setHeader('content-length', body.length);
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export async function measureSearch(origin: string, pagePath: string, query: string, options: { widen?: boolean } = {}): Promise<SearchFigures> {
  if (!CHROMIUM_PATH) throw new Error('Chromium not found (set CHROMIUM_PATH)');
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(origin + pagePath, { waitUntil: 'load' });
    const shown = await page.evaluate(
      (q) =>
        new Promise<{ ms: number; results: number; firstUrl: string }>((resolve) => {
          const list = document.getElementById('search-results') as HTMLElement;
          const input = document.getElementById('search-input') as HTMLInputElement;
          // Never hang the bench: no result within 20 s is reported as such.
          setTimeout(() => resolve({ ms: NaN, results: 0, firstUrl: `(none; status: ${document.getElementById('search-status')?.textContent ?? ''})` }), 20_000);
          const observer = new MutationObserver(() => {
            if (list.children.length === 0) return;
            observer.disconnect();
            const first = list.querySelector('a');
            resolve({ ms: performance.now() - t0, results: list.children.length, firstUrl: first ? first.getAttribute('href') ?? '' : '' });
          });
          observer.observe(list, { childList: true });
          (document.querySelector('[data-search-open]') as HTMLElement).click();
          const t0 = performance.now();
          input.value = q;
          input.dispatchEvent(new Event('input'));
        }),
      query,
    );
    // Snippets fetch result pages 200 ms later; they are not the search, so count before them.
    const transfer = await page.evaluate(() =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((e) => /\/_search\/|\/search\.[0-9a-f]+\.js|\/minisearch\.[0-9a-f]+\.js/.test(e.name))
        .map((e) => e.transferSize),
    );
    const figures: SearchFigures = { query, bytes: transfer.reduce((a, b) => a + b, 0), files: transfer.length, ...shown };
    if (options.widen) {
      figures.wide = await page.evaluate(
        () =>
          new Promise<NonNullable<SearchFigures['wide']>>((resolve) => {
            const list = document.getElementById('search-results') as HTMLElement;
            setTimeout(() => resolve({ results: list.children.length, labelled: 0, firstUrl: '(no labelled result within 20 s)', firstLabel: '' }), 20_000);
            const observer = new MutationObserver(() => {
              if (!list.querySelector('.search-result-scope')) return;
              observer.disconnect();
              const first = list.querySelector('a');
              resolve({
                results: list.children.length,
                labelled: list.querySelectorAll('.search-result-scope').length,
                firstUrl: first ? first.getAttribute('href') ?? '' : '',
                firstLabel: first?.querySelector('.search-result-scope')?.textContent ?? '',
              });
            });
            observer.observe(list, { childList: true, subtree: true });
            (document.getElementById('search-scope') as HTMLElement).click();
          }),
      );
    }
    return figures;
  } finally {
    await browser.close();
  }
}
