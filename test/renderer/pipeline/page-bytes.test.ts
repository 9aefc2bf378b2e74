/**
 * A page's bytes are encoded into the render worker's scratch buffer for hashing and deflate
 * (renderer/pool/render-batch.ts). A page too big for the scratch buffer gets a buffer of its own,
 * and the pages after it in the same batch reuse the scratch buffer: every page in the zip and in
 * memory must still be exactly its HTML, with the hash the manifest gives.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportSite, type ExportResult } from '../../../renderer/index.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';
import { tempSite } from '../load/site-fixtures.js';

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
// About 3.2 M characters of HTML: past the 8 MB cap at three bytes a character.
const HUGE_PARAGRAPHS = 50_000;

let source: string;
let zipped: Record<string, Uint8Array>;
let zipResult: ExportResult;
let inMemory: ExportResult;

beforeAll(async () => {
  const huge = Array.from({ length: HUGE_PARAGRAPHS }, (_, i) => `Paragraph ${i} of the huge page, with café and ✓ in it.`).join('\n\n');
  source = tempSite({
    'docs.json': JSON.stringify({ name: 'Bytes', navigation: { groups: [{ group: 'All', pages: ['small', 'huge', 'after', 'wide'] }] } }),
    'small.mdx': '---\ntitle: Small\n---\n\nA small page before the huge one.\n',
    'huge.mdx': `---\ntitle: Huge\n---\n\n${huge}\n\nThe last paragraph of the huge page.\n`,
    'after.mdx': '---\ntitle: After\n---\n\nA small page after the huge one, from the same batch.\n',
    'wide.mdx': '---\ntitle: Wide\n---\n\nCharacters of every UTF-8 length: a é ✓ 😀 and a lone \uD800 surrogate.\n',
  });
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'page-bytes-'));
  const zipPath = path.join(out, 'site.zip');
  // One batch for all four pages, so the pages after the huge one reuse the scratch buffer.
  zipResult = await exportSite({ pool: sharedRenderPool(), sourceDir: source, outZip: zipPath, batchSize: 8 });
  zipped = unzipSync(fs.readFileSync(zipPath));
  inMemory = await exportSite({ pool: sharedRenderPool(), sourceDir: source, batchSize: 8 });
}, 180_000);

describe('page bytes through the worker scratch buffer', () => {
  it('writes every page whole, the huge one and the pages after it, in the zip and in memory alike', () => {
    const html = (files: (p: string) => Uint8Array | undefined, slug: string): string => new TextDecoder().decode(files(`${slug}/index.html`));
    for (const files of [(p: string) => zipped[p], (p: string) => inMemory.files.get(p)]) {
      const hugePage = html(files, 'huge');
      expect(hugePage.length).toBeGreaterThan((8 * 1024 * 1024) / 3);
      expect(hugePage).toContain('Paragraph 0 of the huge page');
      expect(hugePage).toContain(`Paragraph ${HUGE_PARAGRAPHS - 1} of the huge page, with café and ✓ in it.`);
      expect(hugePage).toContain('The last paragraph of the huge page.');
      expect(hugePage.trimEnd().endsWith('</html>')).toBe(true);
      expect(html(files, 'small')).toContain('A small page before the huge one.');
      expect(html(files, 'after')).toContain('A small page after the huge one, from the same batch.');
      expect(html(files, 'after')).not.toContain('huge page,');
      // A lone surrogate becomes U+FFFD, as Buffer.from would encode it.
      expect(html(files, 'wide')).toContain('a é ✓ 😀 and a lone \uFFFD surrogate.');
    }
  });

  it('gives each page and its Markdown the size and hash of the bytes written', () => {
    for (const file of zipResult.manifest.files.filter((f) => /\/index\.html$|\.md$/.test(f.path))) {
      const bytes = zipped[file.path];
      expect(bytes, file.path).toBeDefined();
      expect(bytes?.length, file.path).toBe(file.size);
      expect(sha256(bytes as Uint8Array), file.path).toBe(file.sha256);
    }
    expect(zipResult.manifest.files.map((f) => f.path)).toEqual(expect.arrayContaining(['huge/index.html', 'huge.md', 'after/index.html']));
  });
});
