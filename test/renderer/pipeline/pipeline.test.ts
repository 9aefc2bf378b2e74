import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRenderPool, exportSite, ExportError, type ExportProgress, type ExportResult, type RenderPool } from '../../../renderer/index.js';
import { wholeScopeIndex } from '../../helpers/search-index.js';
import type { BundleManifest } from '../../../renderer/types.js';
import { fixtureSite, tempSite } from '../load/site-fixtures.js';
import { externalResourceRefs } from './site-scan.js';

const createdAt = new Date('2026-11-01T10:00:00.000Z');
const meta = { jobId: 'se_0123456789abcdef', projectId: 'proj_1', domain: 'docs.acme.example', version: 'v1', createdAt };
const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
const tmp = (name: string): string => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docs-export-')), name);

let pool: RenderPool;
let result: ExportResult;
let zipPath: string;
let outDir: string;
const progress: ExportProgress[] = [];
const poolErrors: Error[] = [];

beforeAll(async () => {
  // Errors that belong to no task (a late answer from an aborted task) are collected, not thrown.
  pool = createRenderPool({ threads: 2, onError: (e) => poolErrors.push(e) });
  zipPath = tmp('bundle.zip');
  outDir = tmp('site');
  result = await exportSite({ sourceDir: fixtureSite('basic'), outZip: zipPath, outDir, pool, ...meta, onProgress: (p) => progress.push(p) });
});

afterAll(async () => {
  await pool.close();
});

const text = (p: string): string => new TextDecoder().decode(result.files.get(p));

describe('exportSite: the bundle', () => {
  it('writes a zip whose every entry matches the manifest (sha256 and size)', async () => {
    const zip = await JSZip.loadAsync(fs.readFileSync(zipPath));
    const names = Object.keys(zip.files).filter((n) => !zip.files[n]?.dir).sort();
    const manifest = JSON.parse(await (zip.file('manifest.json') as JSZip.JSZipObject).async('string')) as BundleManifest;
    expect(names).toEqual([...manifest.files.map((f) => f.path), 'manifest.json'].sort());
    for (const f of manifest.files) {
      const bytes = await (zip.file(f.path) as JSZip.JSZipObject).async('uint8array');
      expect({ path: f.path, size: bytes.length, sha256: sha256(bytes) }).toEqual(f);
    }
    expect(result.sizeBytes).toBe(fs.statSync(zipPath).size);
    expect(result.zipPath).toBe(path.resolve(zipPath));
  });

  it('fills the manifest header', () => {
    expect(result.manifest).toMatchObject({ format: 1, ...meta, createdAt: createdAt.toISOString(), pageCount: 10 });
    expect(result.pageCount).toBe(10);
    expect(result.manifest.warnings).toContainEqual(expect.objectContaining({ code: 'missing-page' }));
  });

  it('writes pages as path/index.html (the home page as index.html), hidden and outside-navigation pages included, never snippets or ignored files', () => {
    for (const p of ['index.html', 'quickstart/index.html', 'guides/index.html', 'guides/config/index.html', 'guides/advanced/tuning/index.html', 'guides/internal/index.html', 'api/users/index.html', 'orphan/index.html']) {
      expect(result.files.has(p), p).toBe(true);
      expect(text(p)).toMatch(/^<!doctype html>/i);
    }
    const paths = [...result.files.keys()];
    expect(paths.some((p) => p.startsWith('snippets/') || p.startsWith('drafts/') || p.includes('README') || p.includes('secret-notes'))).toBe(false);
  });

  it('writes 404.html, robots.txt, a redirect page, hashed assets and the theme', () => {
    expect(text('404.html')).toMatch(/<html/i);
    expect(text('robots.txt')).toContain('Sitemap: https://docs.acme.example/sitemap.xml');
    expect(text('old-start/index.html')).toContain('url=/quickstart/"');
    expect(result.files.has('blog/:slug*/index.html')).toBe(false);
    const logo = [...result.files.keys()].find((p) => /^_assets\/images\/logo\.[0-9a-f]{8}\.png$/.test(p));
    expect(logo).toBeDefined();
    expect(Buffer.from(result.files.get(logo as string) as Uint8Array).equals(fs.readFileSync(path.join(fixtureSite('basic'), 'images/logo.png')))).toBe(true);
    expect([...result.files.keys()].some((p) => p.startsWith('_static/'))).toBe(true);
  });

  it('lists visible pages in the sitemap by extensionless absolute URL', () => {
    const locs = [...text('sitemap.xml').matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual([
      'https://docs.acme.example/',
      'https://docs.acme.example/quickstart',
      'https://docs.acme.example/guides/install',
      'https://docs.acme.example/guides',
      'https://docs.acme.example/guides/config',
      'https://docs.acme.example/guides/advanced/tuning',
      'https://docs.acme.example/api/users',
      'https://docs.acme.example/api/notes',
    ]);
  });

  it('builds a search index the browser options can load, without hidden pages', () => {
    const index = wholeScopeIndex(result.files, 'all');
    expect(index.search('threads').map((r) => r.id)).toContain('/guides/advanced/tuning/');
    expect(index.search('orphan').map((r) => r.id)).not.toContain('/orphan/');
    expect(index.documentCount).toBe(8);
  });

  it('indexes titles and headings whole but only the first 2,000 characters of body text', async () => {
    const filler = Array.from({ length: 400 }, (_, i) => `word${i % 7}`).join(' ');
    const dir = tempSite({
      'docs.json': JSON.stringify({ name: 'x', navigation: { pages: ['long'] } }),
      'long.mdx': `---\ntitle: Long page\n---\n\nearlyterm ${filler}\n\n## Lateheading\n\n${filler} lateterm\n`,
    });
    const r = await exportSite({ sourceDir: dir, pool });
    const index = wholeScopeIndex(r.files, 'all');
    expect(index.search('earlyterm', { prefix: false, fuzzy: false }).map((x) => x.id)).toEqual(['/long/']);
    expect(index.search('lateheading', { prefix: false, fuzzy: false }).map((x) => x.id)).toEqual(['/long/']);
    expect(index.search('lateterm', { prefix: false, fuzzy: false })).toEqual([]);
  });

  it('writes the same files to outDir', () => {
    for (const [p, bytes] of result.files) {
      expect(sha256(fs.readFileSync(path.join(outDir, p))), p).toBe(sha256(bytes));
    }
  });

  it('loads no script, style, font or image from outside the bundle', () => {
    const offenders: string[] = [];
    for (const [p, bytes] of result.files) {
      const kind = p.endsWith('.html') ? 'html' : p.endsWith('.css') ? 'css' : undefined;
      if (!kind) continue;
      for (const ref of externalResourceRefs(new TextDecoder().decode(bytes), kind)) offenders.push(`${p}: ${ref}`);
    }
    expect(offenders).toEqual([]);
  });

  it("rewrites the repository's stylesheet to the hashed assets and reports what it removed from it and what its script fetches", () => {
    const stylePath = [...result.files.keys()].find((p) => /^_assets\/style\.[0-9a-f]{8}\.css$/.test(p));
    if (!stylePath) throw new Error('no custom stylesheet in the bundle');
    const css = text(stylePath);
    const favicon = [...result.files.keys()].find((p) => /^_assets\/images\/favicon\.[0-9a-f]{8}\.svg$/.test(p));
    expect(css).toContain(`body { background: url("/${favicon}") no-repeat; }`);
    expect(css).toContain('src: url("data:,") format("woff2")');
    // The hashed name is the hash of the rewritten bytes, and the manifest agrees.
    expect(stylePath).toContain(sha256(result.files.get(stylePath) as Uint8Array).slice(0, 8));
    expect(text('index.html')).toContain(`<link rel="stylesheet" href="/${stylePath}">`);
    const warnings = result.manifest.warnings.filter((w) => w.code === 'external-style' || w.code === 'external-script');
    expect(warnings.map((w) => [w.code, w.file, w.line])).toEqual([
      ['external-style', 'style.css', 1],
      ['external-style', 'style.css', 4],
      ['external-script', 'custom.js', 3],
      ['external-style', 'docs.json', undefined],
    ]);
  });

  it('serves the config\'s body font from the bundle and names the heading family whose file is elsewhere', () => {
    const font = [...result.files.keys()].find((p) => /^_assets\/fonts\/brand-sans\.[0-9a-f]{8}\.woff2$/.test(p));
    expect(font).toBeDefined();
    const style = /<style>([^<]*)<\/style>/.exec(text('quickstart/index.html'))?.[1] ?? '';
    expect(style).toContain(`@font-face{font-family:"Brand Sans";src:url("/${font}") format("woff2");font-weight:400;font-display:swap}`);
    expect(style).toContain(':root{--font-sans:"Brand Sans",var(--font-system);--font-heading:"Brand Display",var(--font-sans)}');
    expect(style).not.toContain('fonts.example.com');
    expect(result.manifest.warnings).toContainEqual({
      code: 'external-style',
      message: 'Font source https://fonts.example.com/display.woff2 is outside the bundle and will not load; "Brand Display" applies only where a reader has it installed',
      file: 'docs.json',
    });
  });

  it('reports monotonic progress that ends at the planned page count', () => {
    const done = progress.map((p) => p.pagesDone);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    const last = progress.at(-1);
    expect(last).toEqual({ stage: 'done', pagesDone: 10, pagesPlanned: 10 });
    expect([...new Set(progress.map((p) => p.stage))]).toEqual(['load', 'plan', 'render', 'index', 'write', 'pack', 'done']);
  });
});

describe('exportSite: determinism, failures, options', () => {
  it('gives identical zip bytes for the same input and createdAt', async () => {
    const a = tmp('a.zip');
    const b = tmp('b.zip');
    await exportSite({ sourceDir: fixtureSite('basic'), outZip: a, pool, ...meta });
    await exportSite({ sourceDir: fixtureSite('basic'), outZip: b, pool, ...meta, batchSize: 3 });
    expect(fs.readFileSync(a).equals(fs.readFileSync(b))).toBe(true);
  });

  it('fails the export when a page cannot render, naming file:line, and writes no zip', async () => {
    const dir = tempSite({
      'docs.json': JSON.stringify({ name: 'x', navigation: { pages: ['index', 'broken', 'unclosed'] } }),
      'index.mdx': '# fine\n',
      'broken.mdx': '<Note>\nnever closed\n\nbody\n',
      'unclosed.mdx': '---\ntitle: u\n---\n\nText\n\n<Card title="x">\n\nno end\n',
    });
    const out = tmp('fail.zip');
    const err = await exportSite({ sourceDir: dir, outZip: out, pool }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExportError);
    const e = err as ExportError;
    expect(e.failures.map((f) => f.file)).toEqual(['broken.mdx', 'unclosed.mdx']);
    expect(e.message).toMatch(/broken\.mdx:1: /);
    expect(e.message).toMatch(/unclosed\.mdx:\d+(:\d+)?: .*Card/);
    // The zip is written while pages render: the partial file of a failed export is gone too.
    expect(fs.readdirSync(path.dirname(out)).filter((f) => f.startsWith('fail.zip'))).toEqual([]);
  });

  it('reports a config error as a failure with file and line', async () => {
    const dir = tempSite({ 'docs.json': '{\n  "name": "x",\n  "navigation": [\n' });
    const err = (await exportSite({ sourceDir: dir, pool }).catch((e: unknown) => e)) as ExportError;
    expect(err).toBeInstanceOf(ExportError);
    expect(err.message).toMatch(/docs\.json:4:\d+: invalid JSON/);
  });

  it('exports only the selected paths', async () => {
    const r = await exportSite({ sourceDir: fixtureSite('basic'), pool, paths: ['api/*'] });
    expect([...r.files.keys()].filter((p) => p.endsWith('.html') && !['404.html', 'old-start/index.html', 'index.html'].includes(p)).sort()).toEqual(['api/notes/index.html', 'api/users/index.html']);
    expect(r.pageCount).toBe(2);
    // index.mdx is not selected: the root sends visitors to the first selected page.
    expect(new TextDecoder().decode(r.files.get('index.html'))).toContain('/api/users');
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled by test'));
    await expect(exportSite({ sourceDir: fixtureSite('basic'), pool, signal: controller.signal })).rejects.toThrow('cancelled by test');
    const late = new AbortController();
    const run = exportSite({
      sourceDir: fixtureSite('basic'),
      pool,
      batchSize: 1,
      signal: late.signal,
      onProgress: (p) => {
        if (p.stage === 'render' && p.pagesDone > 0) late.abort(new Error('cancelled mid-render'));
      },
    });
    await expect(run).rejects.toThrow('cancelled mid-render');
    // The shared pool survives an aborted export.
    const after = await exportSite({ sourceDir: fixtureSite('basic'), pool });
    expect(after.pageCount).toBe(10);
    expect(poolErrors.every((e) => /Unexpected message from Worker/.test(e.message))).toBe(true);
  });

  it('leaves no partial zip when aborted mid-render, after the first pages were packed', async () => {
    const dir = path.dirname(tmp('x'));
    const out = path.join(dir, 'mid-render.zip');
    const controller = new AbortController();
    const run = exportSite({
      sourceDir: fixtureSite('basic'),
      outZip: out,
      pool,
      batchSize: 1,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.stage === 'render' && p.pagesDone >= 3) controller.abort(new Error('cancelled mid-render'));
      },
    });
    await expect(run).rejects.toThrow('cancelled mid-render');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('leaves neither a zip nor a partial file when aborted while packing', async () => {
    const dir = path.dirname(tmp('x'));
    const out = path.join(dir, 'aborted.zip');
    const controller = new AbortController();
    const run = exportSite({
      sourceDir: fixtureSite('basic'),
      outZip: out,
      pool,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.stage === 'pack') controller.abort(new Error('cancelled while packing'));
      },
    });
    await expect(run).rejects.toThrow('cancelled while packing');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('fails with the disk\'s own error and leaves no file behind when the disk fills up', async () => {
    const dir = path.dirname(tmp('x'));
    const out = path.join(dir, 'full-disk.zip');
    const realOpen = fs.promises.open.bind(fs.promises);
    // The zip's partial file accepts nothing, as on a full disk; every other file opens as usual.
    const spy = vi.spyOn(fs.promises, 'open').mockImplementation(async (file, flags, mode) => {
      const handle = await realOpen(file, flags, mode);
      if (String(file).startsWith(`${out}.partial-`)) {
        handle.write = (async () => {
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' });
        }) as typeof handle.write;
      }
      return handle;
    });
    try {
      await expect(exportSite({ sourceDir: fixtureSite('basic'), outZip: out, pool, batchSize: 1 })).rejects.toMatchObject({ code: 'ENOSPC' });
    } finally {
      spy.mockRestore();
    }
    expect(fs.readdirSync(dir)).toEqual([]);
    // The pool is unharmed: the next export (with space again) completes.
    const after = await exportSite({ sourceDir: fixtureSite('basic'), outZip: out, pool });
    expect(after.pageCount).toBe(10);
    expect(fs.readdirSync(dir)).toEqual(['full-disk.zip']);
  });

  it('loses only the batch of a crashed worker, reporting each of its pages', async () => {
    // A pool whose first batch dies the way a worker that ran out of memory does.
    let calls = 0;
    const flaky: RenderPool = {
      threads: pool.threads,
      run: (task, options) => (calls++ === 0 ? Promise.reject(new Error('Worker terminated due to reaching memory limit: JS heap out of memory')) : pool.run(task, options)),
      close: () => Promise.resolve(),
    };
    const err = (await exportSite({ sourceDir: fixtureSite('basic'), pool: flaky, batchSize: 2 }).catch((e: unknown) => e)) as ExportError;
    expect(err).toBeInstanceOf(ExportError);
    expect(err.failures.map((f) => f.file)).toEqual(['index.mdx', 'quickstart.mdx']);
    expect(err.message).toContain('index.mdx: render worker failed: Worker terminated due to reaching memory limit');
    expect(calls).toBe(5);
  });

  it('runs two exports side by side on one pool without mixing their contexts', async () => {
    const [a, b] = await Promise.all([
      exportSite({ sourceDir: fixtureSite('basic'), pool, batchSize: 1, createdAt }),
      exportSite({ sourceDir: fixtureSite('legacy'), pool, batchSize: 1, createdAt }),
    ]);
    const decode = (r: ExportResult, p: string): string => new TextDecoder().decode(r.files.get(p));
    expect(a.pageCount).toBe(10);
    expect(b.pageCount).toBe(7);
    for (const p of ['index.html', 'quickstart/index.html', 'api/notes/index.html']) expect(decode(a, p)).toContain('Acme Docs');
    for (const p of ['introduction/index.html', 'setup/index.html', 'sdks/other/index.html']) expect(decode(b, p)).toContain('Legacy Docs');
    expect(decode(b, 'setup/index.html')).not.toContain('Acme Docs');
  });

  it('exports legacy mint.json sites too', async () => {
    const r = await exportSite({ sourceDir: fixtureSite('legacy'), pool, createdAt });
    expect(r.pageCount).toBe(7);
    expect(r.files.has('intro/index.html')).toBe(true);
    expect(r.files.has('api-reference/users/index.html')).toBe(true);
    // No index.mdx: the root redirects to the first page of the navigation.
    expect(new TextDecoder().decode(r.files.get('index.html'))).toContain('/introduction');
    expect(new TextDecoder().decode(r.files.get('sitemap.xml'))).not.toContain('<loc>/</loc>');
  });
});
