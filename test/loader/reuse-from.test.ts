import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadBundle } from '../../app/loader/load-bundle.js';
import { removeTree } from '../../app/fs-tree.js';
import { removeStaleTemps } from '../../app/loader/sites-dir.js';
import { prepareSpareTree, takeSpareTree } from '../../app/loader/spare-tree.js';
import { manifestFor, sampleSite, writeFile, zipBundle } from './helpers/bundle.js';
import { loadOptions, tempDir } from './helpers/servers.js';

/*
 * Issue 43, incremental publish: a bundle that replaces a served version links the files both
 * manifests list alike from it, and inflates only the rest; what it serves is checked as before.
 */
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeTree(d);
});

async function loadTwo(before: Record<string, string | Buffer>, after: Record<string, string | Buffer>, tamper?: (dir: string) => void, afterZip?: Buffer) {
  const state = tempDir('reuse-');
  dirs.push(state);
  const first = await loadBundle(loadOptions(state, writeFile(state, 'in/v1.zip', zipBundle(before, 'v1'))));
  tamper?.(first.dir);
  const second = await loadBundle(loadOptions(state, writeFile(state, 'in/v2.zip', afterZip ?? zipBundle(after, 'v2')), { reuseFrom: first.dir }));
  const inode = (dir: string, rel: string) => fs.statSync(path.join(dir, rel)).ino;
  return { first, second, linked: (rel: string) => inode(first.dir, rel) === inode(second.dir, rel) };
}

describe('loading a bundle over the version it replaces (reuseFrom)', () => {
  it('links the unchanged files and extracts the changed and the new ones; every file is the new bundle’s', async () => {
    const before = sampleSite('v1');
    const after = { ...before, 'guides/intro.html': '<!doctype html><p>Changed.</p>', 'guides/new.html': '<p>New page</p>' };
    const { second, linked } = await loadTwo(before, after);
    expect(second.version).toBe('v2');
    expect(linked('_static/site.3f2a9c1b.css')).toBe(true);
    expect(linked('robots.txt')).toBe(true);
    expect(linked('guides/intro.html')).toBe(false);
    // Not listed by either manifest as the same file: the manifest itself is always extracted.
    expect(linked('manifest.json')).toBe(false);
    for (const [rel, data] of Object.entries(after)) expect(fs.readFileSync(path.join(second.dir, rel))).toEqual(Buffer.from(data));
  });

  it('extracts a file again when the earlier copy is no longer what its manifest said (truncated)', async () => {
    const before = sampleSite('v1');
    const { second, linked } = await loadTwo(before, { ...before, 'index.html': '<p>v2</p>' }, (dir) => fs.writeFileSync(path.join(dir, 'robots.txt'), ''));
    expect(linked('robots.txt')).toBe(false);
    expect(fs.readFileSync(path.join(second.dir, 'robots.txt'), 'utf8')).toBe('User-agent: *\n');
  });

  it('extracts everything when the earlier version has no readable manifest', async () => {
    const before = sampleSite('v1');
    const { second, linked } = await loadTwo(before, { ...before, 'index.html': '<p>v2</p>' }, (dir) => fs.writeFileSync(path.join(dir, 'manifest.json'), '{ not json'));
    expect(linked('robots.txt')).toBe(false);
    expect(fs.readFileSync(path.join(second.dir, '404.html'), 'utf8')).toBe(before['404.html']);
  });

  it('still refuses a bundle whose changed entry does not match its manifest', async () => {
    const before = sampleSite('v1');
    const after = { ...before, 'index.html': '<p>v2</p>' };
    const lying = zipBundle({ ...after, 'index.html': '<p>not what the manifest says</p>' }, 'v2', [], manifestFor(after, 'v2'));
    await expect(loadTwo(before, after, undefined, lying)).rejects.toThrow(/index\.html.*(sha256|bytes)/);
  });
});

describe('the spare directory tree of the next extraction (spare-tree.ts)', () => {
  it('is made from the served version, taken once by the next load, which then holds exactly the new files', async () => {
    const state = tempDir('spare-');
    dirs.push(state);
    const before = { ...sampleSite('v1'), 'a/b/c/deep.html': '<p>deep</p>', 'gone/index.html': '<p>removed next</p>' };
    const first = await loadBundle(loadOptions(state, writeFile(state, 'in/v1.zip', zipBundle(before, 'v1'))));
    await prepareSpareTree(state, first.dir);
    const spare = path.join(state, 'sites', '.spare-ready');
    expect(fs.statSync(path.join(spare, 'a/b/c')).isDirectory()).toBe(true);
    expect(fs.readdirSync(path.join(spare, 'a/b/c'))).toEqual([]);
    const { 'gone/index.html': _gone, ...after } = { ...before, 'index.html': '<p>v2</p>', 'new/page/index.html': '<p>new</p>' };
    const second = await loadBundle(loadOptions(state, writeFile(state, 'in/v2.zip', zipBundle(after, 'v2')), { reuseFrom: first.dir, spareTree: true }));
    expect(fs.existsSync(spare)).toBe(false);
    for (const [rel, data] of Object.entries(after)) expect(fs.readFileSync(path.join(second.dir, rel))).toEqual(Buffer.from(data));
    // The removed page's directory is there, empty: nothing is served from it.
    expect(fs.readdirSync(path.join(second.dir, 'gone'))).toEqual([]);
  });

  it('is not used when something other than directories is in it', async () => {
    const state = tempDir('spare-');
    dirs.push(state);
    const before = sampleSite('v1');
    const first = await loadBundle(loadOptions(state, writeFile(state, 'in/v1.zip', zipBundle(before, 'v1'))));
    await prepareSpareTree(state, first.dir);
    fs.writeFileSync(path.join(state, 'sites', '.spare-ready', 'guides', 'planted.html'), '<p>not from the bundle</p>');
    expect(takeSpareTree(state)).toBeUndefined();
    const second = await loadBundle(loadOptions(state, writeFile(state, 'in/v2.zip', zipBundle(before, 'v2')), { spareTree: true }));
    expect(fs.existsSync(path.join(second.dir, 'guides', 'planted.html'))).toBe(false);
  });

  it('a half-made spare left by a crash is removed at the next start; a ready one is kept', async () => {
    const state = tempDir('spare-');
    dirs.push(state);
    fs.mkdirSync(path.join(state, 'sites', '.spare-0a1b2c3d4e5f', 'x'), { recursive: true });
    fs.mkdirSync(path.join(state, 'sites', '.spare-ready', 'y'), { recursive: true });
    removeStaleTemps(state);
    expect(fs.readdirSync(path.join(state, 'sites')).sort()).toEqual(['.spare-ready']);
  });
});
