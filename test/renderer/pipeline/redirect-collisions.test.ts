/**
 * A bundle never holds two entries a file system cannot hold together (issue 39 class 9): a
 * redirect from `/a.md` would write `a.md/index.html` beside the page's own Markdown copy `a.md`
 * (EISDIR in --out-dir, a zip `unzip` refuses). The page's file wins, with a warning.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { exportSite } from '../../../renderer/index.js';
import { tempSite } from '../load/site-fixtures.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';

const site = (): string =>
  tempSite({
    'docs.json': JSON.stringify({
      name: 'x',
      navigation: { pages: ['index', 'a', 'b'] },
      redirects: [
        { source: '/a.md', destination: '/b' },
        { source: '/sitemap.xml', destination: '/b' },
        { source: '/gone.md', destination: '/b' },
      ],
    }),
    'index.mdx': '# home',
    'a.mdx': '---\ntitle: Page A\n---\n\nThe text of A.',
    'b.mdx': '# b',
  });

/** Each path that is also the directory of another entry (what a file system cannot hold). */
function fileDirClashes(paths: readonly string[]): string[] {
  const files = new Set(paths);
  return paths.flatMap((p) => p.split('/').slice(0, -1).map((_, i, segs) => segs.slice(0, i + 1).join('/')).filter((dir) => files.has(dir)));
}

const tmp = (name: string): string => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docs-redirects-')), name);

describe('redirects that would collide with a file of the bundle', () => {
  it('--out-dir: the page keeps its Markdown copy, the sitemap stays a file, and each skipped redirect is warned', async () => {
    const outDir = tmp('site');
    const result = await exportSite({ sourceDir: site(), outDir, pool: sharedRenderPool() });
    expect(fs.readFileSync(path.join(outDir, 'a.md'), 'utf8')).toContain('The text of A.');
    expect(fs.statSync(path.join(outDir, 'sitemap.xml')).isFile()).toBe(true);
    // A redirect that collides with nothing is still written.
    expect(fs.readFileSync(path.join(outDir, 'gone.md/index.html'), 'utf8')).toContain('/b/');
    expect(result.manifest.warnings.filter((w) => w.code === 'redirect-collides').map((w) => w.message)).toEqual([
      'redirect /a.md → /b: /a.md is the Markdown copy of the page /a, which wins; skipped',
      'redirect /sitemap.xml → /b: /sitemap.xml is a file of the bundle, which wins; skipped',
    ]);
    const nginx = fs.readFileSync(path.join(outDir, 'nginx-redirects.conf'), 'utf8');
    expect(nginx).not.toContain('/a.md');
    expect(nginx).not.toContain('/sitemap.xml');
    expect(nginx).toContain('/gone.md');
  });

  it('zip: no entry is both a file and a directory', async () => {
    const outZip = tmp('bundle.zip');
    await exportSite({ sourceDir: site(), outZip, pool: sharedRenderPool() });
    const zip = await JSZip.loadAsync(fs.readFileSync(outZip));
    const names = Object.keys(zip.files).filter((n) => !zip.files[n]?.dir);
    expect(names).toContain('a.md');
    expect(names).toContain('gone.md/index.html');
    expect(fileDirClashes(names)).toEqual([]);
    expect(await (zip.file('a.md') as JSZip.JSZipObject).async('string')).toContain('The text of A.');
  });
});
