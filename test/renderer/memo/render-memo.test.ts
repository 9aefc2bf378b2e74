import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzipSync } from 'fflate';
import { exportSite, type RenderPool } from '../../../renderer/index.js';
import { checkMemoEquality, firstDifference } from '../../../scripts/memo-equality/check.js';
import { EDIT_KINDS } from '../../../scripts/memo-equality/edits.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';
import { tempSite } from '../load/site-fixtures.js';

/*
 * Issue 43, incremental publish: an export with the render memo equals a full export of the same
 * tree, file for file, after any sequence of edits; and it renders only what an edit touches.
 */
const EXAMPLE_DOCS = path.resolve(import.meta.dirname, '../../../example-docs');
const CREATED_AT = new Date('2026-01-01T00:00:00Z');

let pool: RenderPool;
beforeAll(() => {
  pool = sharedRenderPool(2);
});
afterAll(async () => {
  await pool.close();
});

function siteWith(pages: number, extra: Record<string, string> = {}): string {
  const files: Record<string, string> = { ...extra };
  const names = Array.from({ length: pages }, (_, i) => `p${i}`);
  for (const n of names) files[`${n}.mdx`] ??= `---\ntitle: Page ${n}\n---\n\nBody of ${n}.\n`;
  files['docs.json'] ??= JSON.stringify({ name: 'S', navigation: { groups: [{ group: 'All', pages: names }] } });
  return tempSite(files);
}

async function exportBoth(source: string, memoDir: string) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'memo-test-'));
  const common = { sourceDir: source, pool, createdAt: CREATED_AT, version: 'v', projectId: 'p', domain: 'docs.internal' };
  const memo = await exportSite({ ...common, outZip: path.join(tmp, 'memo.zip'), memoDir });
  const full = await exportSite({ ...common, outZip: path.join(tmp, 'full.zip') });
  const zips = { memo: unzipSync(fs.readFileSync(path.join(tmp, 'memo.zip'))), full: unzipSync(fs.readFileSync(path.join(tmp, 'full.zip'))) };
  fs.rmSync(tmp, { recursive: true, force: true });
  return { stats: memo.memo!, difference: firstDifference({ zip: zips.memo, result: memo }, { zip: zips.full, result: full }), zips };
}

describe('render memo', { timeout: 120_000 }, () => {
  it('equals a full export after random edits of the bundled example docs (every kind of edit), and reuses pages on text edits', async () => {
    const steps = await checkMemoEquality({ source: EXAMPLE_DOCS, steps: 14, seed: 7, pool, kinds: EDIT_KINDS });
    for (const s of steps) expect(s.difference, `step ${s.step} (${s.edit})`).toBeUndefined();
    // The sequence did edit the tree, and some steps were incremental.
    expect(steps.filter((s) => s.step > 0 && s.edit !== 'nothing could be edited').length).toBe(14);
    expect(steps.some((s) => s.pagesReused > 0 && s.pagesRendered > 0)).toBe(true);
    expect(steps[0]!.pagesReused).toBe(0);
  });

  it('a page text edit renders that page again and reuses the rest; a title edit renders every page (the sidebar shows it)', async () => {
    const source = siteWith(40);
    const memoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'memo-dir-'));
    const first = await exportBoth(source, memoDir);
    expect(first.stats).toEqual({ pagesReused: 0, pagesRendered: 40 });

    fs.appendFileSync(path.join(source, 'p17.mdx'), '\nA new sentence.\n');
    const text = await exportBoth(source, memoDir);
    expect(text.difference).toBeUndefined();
    expect(text.stats.pagesReused + text.stats.pagesRendered).toBe(40);
    expect(text.stats.pagesRendered).toBeGreaterThanOrEqual(1);
    expect(text.stats.pagesRendered).toBeLessThanOrEqual(16);
    expect(Buffer.from(text.zips.memo['p17/index.html']!).toString()).toContain('A new sentence.');

    // Same size, same second: only the bytes tell (a probe of the file's size would not).
    const p9 = path.join(source, 'p9.mdx');
    const before = fs.statSync(p9);
    fs.writeFileSync(p9, fs.readFileSync(p9, 'utf8').replace('Body of p9.', 'Body of q9.'));
    fs.utimesSync(p9, before.atime, before.mtime);
    const same = await exportBoth(source, memoDir);
    expect(same.difference).toBeUndefined();
    expect(same.stats.pagesRendered).toBeGreaterThanOrEqual(1);
    expect(Buffer.from(same.zips.memo['p9/index.html']!).toString()).toContain('Body of q9.');

    fs.writeFileSync(path.join(source, 'p3.mdx'), '---\ntitle: Renamed three\n---\n\nBody of p3.\n');
    const title = await exportBoth(source, memoDir);
    expect(title.difference).toBeUndefined();
    expect(title.stats).toEqual({ pagesReused: 0, pagesRendered: 40 });
    expect(Buffer.from(title.zips.memo['p30/index.html']!).toString()).toContain('Renamed three');
  });

  it('a snippet edit renders again exactly the batches of the pages that import it', async () => {
    const pages: Record<string, string> = { 'snippets/note.mdx': 'Shared note, first version.\n' };
    for (let i = 0; i < 40; i++) pages[`p${i}.mdx`] = `---\ntitle: Page ${i}\n---\n\n${i === 5 || i === 33 ? "import Note from '/snippets/note.mdx';\n\n<Note />\n" : `Body of ${i}.`}\n`;
    const source = siteWith(40, pages);
    const memoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'memo-dir-'));
    await exportBoth(source, memoDir);
    fs.writeFileSync(path.join(source, 'snippets/note.mdx'), 'Shared note, second version.\n');
    const after = await exportBoth(source, memoDir);
    expect(after.difference).toBeUndefined();
    expect(after.stats.pagesRendered).toBeGreaterThanOrEqual(2);
    expect(after.stats.pagesRendered).toBeLessThanOrEqual(2 * 16);
    expect(after.stats.pagesReused).toBeGreaterThan(0);
    expect(Buffer.from(after.zips.memo['p33/index.html']!).toString()).toContain('second version');
    // A snippet that appears where an import had found nothing before is seen too: the lookup was recorded.
    fs.writeFileSync(path.join(source, 'p20.mdx'), "---\ntitle: Page 20\n---\n\nimport Later from '/snippets/later.mdx';\n\n<Later />\n");
    const missing = await exportBoth(source, memoDir);
    expect(missing.difference).toBeUndefined();
    expect(Buffer.from(missing.zips.memo['p20/index.html']!).toString()).not.toContain('Now it exists.');
    fs.writeFileSync(path.join(source, 'snippets/later.mdx'), 'Now it exists.\n');
    const found = await exportBoth(source, memoDir);
    expect(found.difference).toBeUndefined();
    expect(Buffer.from(found.zips.memo['p20/index.html']!).toString()).toContain('Now it exists.');
  });

  it('keeps only what the last export used, ignores a torn entry, and exports without reuse when the directory cannot be made', async () => {
    const source = siteWith(24);
    const memoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'memo-dir-'));
    await exportBoth(source, memoDir);
    const entries = fs.readdirSync(memoDir).filter((n) => n.endsWith('.batch'));
    expect(entries.length).toBeGreaterThan(1);
    fs.writeFileSync(path.join(memoDir, 'stale.batch'), 'left by an older export');
    // Torn: a crash while a batch was written leaves a short file (written whole under a temporary name, so only by hand).
    fs.writeFileSync(path.join(memoDir, entries[0]!), Buffer.from([1, 2]));
    const again = await exportBoth(source, memoDir);
    expect(again.difference).toBeUndefined();
    expect(again.stats.pagesRendered).toBeGreaterThan(0);
    expect(again.stats.pagesReused).toBeGreaterThan(0);
    expect(fs.existsSync(path.join(memoDir, 'stale.batch'))).toBe(false);
    expect(fs.readdirSync(memoDir).filter((n) => n.endsWith('.batch')).sort()).toEqual([...entries].sort());

    const blocked = path.join(memoDir, 'a-file');
    fs.writeFileSync(blocked, 'not a directory');
    const unusable = await exportBoth(source, path.join(blocked, 'memo'));
    expect(unusable.difference).toBeUndefined();
    expect(unusable.stats).toEqual({ pagesReused: 0, pagesRendered: 24 });
  });

  it('is not used by an export of some paths only (it would prune the rest)', async () => {
    const source = siteWith(8);
    const memoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'memo-dir-'));
    const result = await exportSite({ sourceDir: source, pool, createdAt: CREATED_AT, memoDir, paths: ['p1'] });
    expect(result.memo).toBeUndefined();
    expect(fs.readdirSync(memoDir)).toEqual([]);
  });
});
