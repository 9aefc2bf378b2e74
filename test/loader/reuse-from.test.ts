import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadBundle } from '../../app/loader/load-bundle.js';
import { removeTree } from '../../app/fs-tree.js';
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
