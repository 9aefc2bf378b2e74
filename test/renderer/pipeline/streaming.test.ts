import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSite, type ExportResult, type RenderPool } from '../../../renderer/index.js';
import { tempSite } from '../load/site-fixtures.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';

/**
 * Memory flat in site size: a zip export frames each page into the zip as its batch is final and
 * keeps only its size and hash; `files` reads a page back from the zip. One result shape for a
 * zip, a directory and an in-memory export.
 */

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

function site(pages: number): string {
  const files: Record<string, string> = {};
  const names = Array.from({ length: pages }, (_, i) => `p${i}`);
  for (const n of names) files[`${n}.mdx`] = `---\ntitle: Page ${n}\n---\n\nBody of ${n}, with [a link](/p0).\n`;
  files['docs.json'] = JSON.stringify({ name: 'S', navigation: { groups: [{ group: 'All', pages: names }] } });
  return tempSite(files);
}

let pool: RenderPool;
let source: string;
let zipped: ExportResult;
let zipPath: string;
let inMemory: ExportResult;
let outDir: string;
let onDisk: ExportResult;

beforeAll(async () => {
  pool = sharedRenderPool(2);
  source = site(120);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-stream-'));
  zipPath = path.join(tmp, 'site.zip');
  outDir = path.join(tmp, 'out');
  const createdAt = new Date('2026-01-01T00:00:00Z');
  zipped = await exportSite({ sourceDir: source, outZip: zipPath, pool, createdAt, batchSize: 8 });
  inMemory = await exportSite({ sourceDir: source, pool, createdAt });
  onDisk = await exportSite({ sourceDir: source, outDir, pool, createdAt });
});

afterAll(async () => {
  await pool.close();
});

describe('pages streamed through the zip', () => {
  it('gives the same files, byte for byte, from a zip export, an outDir export and an in-memory one', () => {
    expect([...zipped.files.keys()]).toEqual([...inMemory.files.keys()]);
    for (const [p, bytes] of inMemory.files) {
      expect(sha256(zipped.files.get(p)!), p).toBe(sha256(bytes));
      expect(sha256(onDisk.files.get(p)!), p).toBe(sha256(bytes));
      expect(sha256(fs.readFileSync(path.join(outDir, p))), p).toBe(sha256(bytes));
    }
  });

  it('matches the manifest for every page read back from the zip', () => {
    const pages = zipped.manifest.files.filter((f) => f.path.endsWith('index.html'));
    expect(pages.length).toBeGreaterThan(100);
    for (const f of pages) expect(sha256(zipped.files.get(f.path)!), f.path).toBe(f.sha256);
  });

  it('keeps no page bytes in memory once they are in the zip: they are read back from the file', () => {
    const moved = `${zipPath}.moved`;
    fs.renameSync(zipPath, moved);
    try {
      expect(() => zipped.files.get('p5/index.html')).toThrow(/ENOENT/);
      // Files that are not pages (the search index, the manifest) stay at hand.
      expect(zipped.files.get('manifest.json')?.length).toBeGreaterThan(0);
    } finally {
      fs.renameSync(moved, zipPath);
    }
    expect(new TextDecoder().decode(zipped.files.get('p5/index.html'))).toContain('Body of p5');
  });

  it('writes an outDir export’s pages as they come and keeps no page bytes in memory either', () => {
    const page = path.join(outDir, 'p5/index.html');
    const kept = fs.readFileSync(page);
    fs.rmSync(page);
    try {
      expect(() => onDisk.files.get('p5/index.html')).toThrow(/ENOENT/);
    } finally {
      fs.writeFileSync(page, kept);
    }
    expect(new TextDecoder().decode(onDisk.files.get('p5/index.html'))).toContain('Body of p5');
  });

  it('leaves no half site in outDir when a page fails', async () => {
    const names = Array.from({ length: 40 }, (_, i) => `q${i}`);
    const files: Record<string, string> = { 'docs.json': JSON.stringify({ name: 'S', navigation: { groups: [{ group: 'All', pages: names }] } }) };
    for (const n of names) files[`${n}.mdx`] = n === 'q39' ? '<Note>\nnever closed\n\nbody\n' : `# ${n}\n`;
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-stream-fail-'));
    fs.writeFileSync(path.join(out, 'keep.txt'), 'the operator’s own file');
    await expect(exportSite({ sourceDir: tempSite(files), outDir: out, pool, batchSize: 4 })).rejects.toThrow(/q39\.mdx:1/);
    expect(fs.readdirSync(out)).toEqual(['keep.txt']);
  });
});
