import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { runExport } from '../../../app/commands/export.js';
import { fixtureSite, tempSite } from '../load/site-fixtures.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';

function capture(isTTY = false): { stream: PassThrough & { isTTY?: boolean }; text(): string } {
  const stream = new PassThrough() as PassThrough & { isTTY?: boolean };
  stream.isTTY = isTTY;
  let out = '';
  stream.on('data', (c: Buffer) => (out += c.toString()));
  return { stream, text: () => out };
}

/** The command closes the pool it is given; this one stays warm for the next test (helpers/render-pool.ts). */
const warm = { renderPool: (threads: number | undefined) => sharedRenderPool(threads) };

const outDir = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'docs-cli-'));

describe('docs-appliance export', () => {
  it('writes the bundle, prints a summary and warnings, exits 0', async () => {
    const stdout = capture();
    const stderr = capture();
    const dir = outDir();
    const zip = path.join(dir, 'nested', 'bundle.zip');
    const code = await runExport([fixtureSite('basic'), '--out', zip, '--out-dir', path.join(dir, 'site'), '--version', 'v42', '--threads', '1'], {
      stdout: stdout.stream,
      stderr: stderr.stream,
    }, warm);
    expect(code).toBe(0);
    expect(stdout.text()).toMatch(/exported 10 pages to .*bundle\.zip/);
    expect(stdout.text()).toMatch(/missing-page: 1\n\s+docs\.json: navigation lists "guides\/not-written-yet"/);
    // Not a terminal: plain progress lines, ending with done.
    expect(stderr.text()).toMatch(/export: render \d+\/10 pages/);
    expect(stderr.text().trim().split('\n').at(-1)).toBe('export: done 10/10 pages');
    const manifest = JSON.parse(await (await JSZip.loadAsync(fs.readFileSync(zip))).file('manifest.json')!.async('string')) as { version: string };
    expect(manifest.version).toBe('v42');
    expect(fs.existsSync(path.join(dir, 'site', 'index.html'))).toBe(true);
  });

  it('writes the policy --csp gives into every page, without what only a header can carry', async () => {
    const dir = outDir();
    const policy = "default-src 'self'; connect-src 'self' https://api.acme.test; frame-ancestors 'none'";
    const code = await runExport([fixtureSite('basic'), '--out', path.join(dir, 'b.zip'), '--out-dir', path.join(dir, 'site'), '--csp', policy, '--threads', '1'], { stdout: capture().stream, stderr: capture().stream }, warm);
    expect(code).toBe(0);
    const page = fs.readFileSync(path.join(dir, 'site', 'quickstart', 'index.html'), 'utf8');
    expect(page).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src &#39;self&#39;; connect-src &#39;self&#39; https://api.acme.test">`);
  });

  it('--memo keeps a render memo: a second run over the same tree renders no page and writes the same bundle', async () => {
    const dir = outDir();
    const memo = path.join(dir, 'memo');
    const run = async (zip: string) => {
      const stdout = capture();
      const code = await runExport([fixtureSite('basic'), '--out', path.join(dir, zip), '--version', 'v1', '--memo', memo, '--threads', '1'], { stdout: stdout.stream, stderr: capture().stream }, warm);
      expect(code).toBe(0);
      return stdout.text();
    };
    expect(await run('a.zip')).toMatch(/render memo: 10 pages rendered, 0 reused/);
    expect(await run('b.zip')).toMatch(/render memo: 0 pages rendered, 10 reused/);
    const entries = async (zip: string) => {
      const z = await JSZip.loadAsync(fs.readFileSync(path.join(dir, zip)));
      return Promise.all(Object.keys(z.files).sort().map(async (n) => [n, (n === 'manifest.json' ? '' : await z.file(n)?.async('string')) ?? ''] as const));
    };
    expect(await entries('b.zip')).toEqual(await entries('a.zip'));
  });

  it('draws a progress bar on a terminal', async () => {
    const stderr = capture(true);
    const code = await runExport([fixtureSite('basic'), '--out', path.join(outDir(), 'tty.zip'), '--threads', '1'], { stdout: capture().stream, stderr: stderr.stream }, warm);
    expect(code).toBe(0);
    expect(stderr.text()).toMatch(/export \[[█░]+\] 100% \| 10\/10 pages/);
    expect(stderr.text()).not.toContain('export: render');
  });

  it('exits 1 with file:line when a page fails, and writes no bundle', async () => {
    const stdout = capture();
    const stderr = capture();
    const site = tempSite({ 'docs.json': JSON.stringify({ name: 'x', navigation: { pages: ['index'] } }), 'index.mdx': '---\ntitle: [unclosed\n---\n\nbody\n' });
    const zip = path.join(outDir(), 'bundle.zip');
    const code = await runExport([site, '--out', zip, '--threads', '1'], { stdout: stdout.stream, stderr: stderr.stream }, warm);
    expect(code).toBe(1);
    expect(stderr.text()).toMatch(/error: export failed, 1 file failed to render:\nindex\.mdx:\d+(:\d+)?: /);
    expect(fs.existsSync(zip)).toBe(false);
  });

  it('with --keep-going writes the pages that render, lists the others on stderr and in the manifest, exits 3 (partial)', async () => {
    const site = tempSite({
      'docs.json': JSON.stringify({ name: 'x', navigation: { pages: ['index', 'broken', 'imports-missing'] } }),
      'index.mdx': '---\ntitle: Home\n---\n\nFine.\n',
      'broken.mdx': '---\ntitle: Broken\n---\n\n<Card title={"open} />\n',
      // Mintlify builds a page whose import is missing: a warning, never a failure.
      'imports-missing.mdx': "import Filter from '../../src/components/Filter.js';\n\n<Filter>kept</Filter>\n",
    });
    const strict = capture();
    expect(await runExport([site, '--out', path.join(outDir(), 'strict.zip'), '--threads', '1'], { stdout: capture().stream, stderr: strict.stream }, warm)).toBe(1);
    expect(strict.text()).toMatch(/error: export failed, 1 file failed to render:\nbroken\.mdx:5:\d+: Could not parse: Unterminated string constant/);

    const stdout = capture();
    const stderr = capture();
    const zip = path.join(outDir(), 'partial.zip');
    const code = await runExport([site, '--out', zip, '--threads', '1', '--keep-going'], { stdout: stdout.stream, stderr: stderr.stream }, warm);
    expect(code).toBe(3);
    expect(stdout.text()).toMatch(/exported 2 pages to .*partial\.zip/);
    expect(stdout.text()).toMatch(/missing-import: 1\n\s+imports-missing\.mdx:1: \.\.\/\.\.\/src\/components\/Filter\.js points outside the repository/);
    expect(stderr.text()).toMatch(/1 failure \(--keep-going: these pages are not in the bundle; manifest\.json lists them\):\n  broken\.mdx:5:\d+: Could not parse: Unterminated string constant/);
    expect(stderr.text()).toContain('partial export: exit 3');
    const files = await JSZip.loadAsync(fs.readFileSync(zip));
    const manifest = JSON.parse(await files.file('manifest.json')!.async('string')) as { pageCount: number; failures: unknown[] };
    expect(manifest.pageCount).toBe(2);
    expect(manifest.failures).toEqual([{ path: 'broken', file: 'broken.mdx', line: 5, column: expect.any(Number), message: expect.stringMatching(/^Could not parse: Unterminated string constant/) }]);
    expect(await files.file('imports-missing/index.html')!.async('string')).toContain('kept');
    expect(files.file('broken/index.html')).toBeNull();
  });

  it('exits 1 naming docs.json when the config is broken', async () => {
    const stderr = capture();
    const site = tempSite({ 'docs.json': '{ "name": "x", }' });
    const code = await runExport([site, '--out', path.join(outDir(), 'b.zip'), '--threads', '1'], { stdout: capture().stream, stderr: stderr.stream }, warm);
    expect(code).toBe(1);
    expect(stderr.text()).toMatch(/docs\.json:1:\d+: invalid JSON/);
  });

  it('exits 2 with the usage for bad arguments', async () => {
    for (const argv of [[], [fixtureSite('basic')], ['a', 'b', '--out', 'x.zip'], [fixtureSite('basic'), '--out', 'x.zip', '--bogus'], [fixtureSite('basic'), '--out', 'x.zip', '--threads', 'zero']]) {
      const stderr = capture();
      expect(await runExport(argv, { stdout: capture().stream, stderr: stderr.stream }, warm), argv.join(' ')).toBe(2);
      expect(stderr.text()).toContain('usage: docs-appliance export <docsDir> --out <bundle.zip>');
    }
  });

  it('rejects --paths that match no page', async () => {
    const stderr = capture();
    const code = await runExport([fixtureSite('basic'), '--out', path.join(outDir(), 'p.zip'), '--paths', 'guides,nothing-here', '--threads', '1'], { stdout: capture().stream, stderr: stderr.stream }, warm);
    expect(code).toBe(1);
    expect(stderr.text()).toContain('--paths: paths match no page: nothing-here');
  });
});
