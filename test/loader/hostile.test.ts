import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadBundle } from '../../app/loader/load-bundle.js';
import { safeEntryName } from '../../app/loader/entry-name.js';
import { manifestFor, sampleSite, writeFile, zipBundle } from './helpers/bundle.js';
import { rawTar } from './helpers/raw-tar.js';
import { rawZip } from './helpers/raw-zip.js';
import { loadOptions, tempDir } from './helpers/servers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** Load `archive` from a fresh state dir; return the state dir for inspection after the failure. */
async function rejects(archive: Buffer, pattern: RegExp, extra: Parameters<typeof loadOptions>[2] = {}): Promise<string> {
  const state = tempDir('hostile-');
  dirs.push(state);
  const file = writeFile(state, 'in/bundle.bin', archive);
  await expect(loadBundle(loadOptions(state, file, extra))).rejects.toThrow(pattern);
  // Nothing was extracted anywhere: no version dir, no temp leftovers, nothing outside the state dir.
  const sites = path.join(state, 'sites');
  expect(fs.existsSync(sites) ? fs.readdirSync(sites) : []).toEqual([]);
  return state;
}

const site = sampleSite('v1');

describe('hostile zips', () => {
  it('zip slip with ../ is refused and writes nothing outside the root', async () => {
    const state = await rejects(zipBundle(site, 'v1', [{ name: '../../evil.txt', data: 'owned' }]), /invalid relative path: \.\.\/\.\.\/evil\.txt/);
    expect(fs.existsSync(path.join(state, 'evil.txt'))).toBe(false);
    expect(fs.existsSync(path.join(path.dirname(state), 'evil.txt'))).toBe(false);
  });

  it('a `..` hidden mid-path is refused', async () => {
    await rejects(zipBundle(site, 'v1', [{ name: 'guides/../../x.html', data: 'x' }]), /invalid relative path/);
  });

  it('absolute paths and drive letters are refused', async () => {
    await rejects(zipBundle(site, 'v1', [{ name: '/etc/cron.d/evil', data: 'x' }]), /absolute path: \/etc\/cron\.d\/evil/);
    await rejects(zipBundle(site, 'v1', [{ name: 'C:/Windows/evil', data: 'x' }]), /absolute path: C:\/Windows\/evil/);
  });

  it('backslash tricks are refused', async () => {
    await rejects(zipBundle(site, 'v1', [{ name: '..\\..\\evil.txt', data: 'x' }]), /invalid characters in fileName: \.\.\\\.\.\\evil\.txt/);
    await rejects(zipBundle(site, 'v1', [{ name: 'guides\\intro.html', data: 'x' }]), /invalid characters/);
  });

  it('a symlink entry is refused', async () => {
    await rejects(zipBundle(site, 'v1', [{ name: 'passwd.html', data: '/etc/passwd', mode: 0o120777 }]), /"passwd\.html" is a symbolic link/);
  });

  it('a zip bomb whose headers lie about the size is stopped by counting real bytes', async () => {
    // 20 MB of zeros deflates to ~20 KB; both headers claim 100 bytes.
    const bomb = rawZip([{ name: 'index.html', data: Buffer.alloc(20 * 1024 * 1024), deflate: true, claimedSize: 100 }]);
    expect(bomb.length).toBeLessThan(100 * 1024);
    await rejects(bomb, /too many bytes in the stream|exceeds/);
  });

  it('many honest entries that add up past maxUncompressedBytes are stopped at the cap', async () => {
    const entries = Array.from({ length: 4 }, (_, i) => ({ name: `page${i}.html`, data: Buffer.alloc(400 * 1024), deflate: true }));
    await rejects(rawZip(entries), /uncompressed content exceeds 1048576 bytes at entry "page\d\.html" \(staticExport\.maxUncompressedBytes\)/, {
      limits: { maxEntries: 100, maxUncompressedBytes: 1024 * 1024 },
    });
  });

  it('a single entry declaring more than the cap is refused before inflating', async () => {
    await rejects(rawZip([{ name: 'a.html', data: 'x', deflate: true, claimedSize: 50 * 1024 * 1024 }]), /declares 52428800 bytes/);
  });

  it('more entries than maxEntries are refused', async () => {
    await rejects(zipBundle(site, 'v1'), /9 entries, more than 5 \(staticExport\.maxEntries\)/, { limits: { maxEntries: 5, maxUncompressedBytes: 1024 * 1024 } });
  });

  it('a truncated zip is refused', async () => {
    const full = zipBundle(site, 'v1');
    await rejects(full.subarray(0, Math.floor(full.length / 2)), /not a readable zip archive/);
  });

  it('a file whose sha256 differs from the manifest is refused, naming the file', async () => {
    const tampered = { ...site, 'guides/intro.html': 'tampered' };
    const manifest = manifestFor(site, 'v1');
    await rejects(zipBundle(tampered, 'v1', [], manifest), /"guides\/intro\.html" is 8 bytes, manifest\.json says/);
    const sameSize = { ...site, 'robots.txt': 'User-agent: X\n' };
    await rejects(zipBundle(sameSize, 'v1', [], manifest), /"robots\.txt" sha256 [0-9a-f]{64} does not match manifest\.json/);
  });

  it('a file missing from, or not listed in, the manifest is refused', async () => {
    const { ['robots.txt']: _dropped, ...fewer } = site;
    await rejects(zipBundle(fewer, 'v1', [], manifestFor(site, 'v1')), /"robots\.txt" is listed in manifest\.json but missing/);
    await rejects(zipBundle(site, 'v1', [{ name: 'extra.html', data: 'x' }]), /"extra\.html" is in the bundle but not listed/);
  });

  it('a wrong version against the pin is refused', async () => {
    await rejects(zipBundle(site, 'v2'), /bundle version "v2" does not match the pinned staticExport\.version "v1"/, { version: 'v1' });
  });

  it('a zip without a manifest, or with an invalid one, is refused', async () => {
    await rejects(rawZip([{ name: 'index.html', data: 'x' }]), /manifest\.json is missing/);
    await rejects(zipBundle(site, 'v1', [], '{"format":2}'), /manifest\.json is invalid: format/);
    await rejects(zipBundle(site, 'v1', [], 'not json'), /manifest\.json is not valid JSON/);
  });

  it('a file that is neither zip nor tar is refused', async () => {
    await rejects(Buffer.from('<html>an error page, not a bundle</html>'), /neither a zip nor a \(gzipped\) tar archive/);
  });

  it('the same name twice is refused', async () => {
    await rejects(zipBundle(site, 'v1', [{ name: 'index.html', data: 'again' }]), /"index\.html" appears twice/);
  });
});

describe('hostile tarballs', () => {
  const files = Object.entries(site).map(([name, data]) => ({ name, data: Buffer.from(data) }));

  it('zip slip with ../ is refused', async () => {
    await rejects(rawTar([...files, { name: '../evil.txt', data: 'x' }]), /entry "\.\.\/evil\.txt" rejected: path goes outside the bundle root/);
  });

  it('absolute paths are refused (node-tar would only strip them)', async () => {
    await rejects(rawTar([...files, { name: '/etc/evil', data: 'x' }]), /entry "\/etc\/evil" rejected: absolute path/);
  });

  it('backslashes are refused', async () => {
    await rejects(rawTar([...files, { name: '..\\evil', data: 'x' }]), /backslash/);
  });

  it('symlinks and hard links are refused', async () => {
    await rejects(rawTar([...files, { name: 'passwd.html', type: '2', linkTarget: '/etc/passwd' }]), /"passwd\.html" is a symbolic link/);
    await rejects(rawTar([...files, { name: 'copy.html', type: '1', linkTarget: 'index.html' }]), /"copy\.html" is a hard link/);
  });

  it('a gzip bomb is stopped at the real byte cap', async () => {
    await rejects(rawTar([{ name: 'index.html', data: Buffer.alloc(8 * 1024 * 1024) }]), /exceeds 1048576 bytes|inflates more than 1000 times/i, {
      limits: { maxEntries: 100, maxUncompressedBytes: 1024 * 1024 },
    });
  });

  it('a truncated tarball is refused', async () => {
    const plain = rawTar(files, false);
    const { gzipSync } = await import('node:zlib');
    await rejects(gzipSync(plain.subarray(0, 700)), /truncated|not a readable tar/i);
    const gz = rawTar(files);
    await rejects(gz.subarray(0, gz.length - 30), /unexpected end|not a readable tar/i);
  });

  it('a wrong hash in a tarball manifest is refused', async () => {
    const manifest = manifestFor(site, 'v1');
    const tampered = files.map((f) => (f.name === 'index.html' ? { ...f, data: Buffer.from('tampered!') } : f));
    await rejects(rawTar([...tampered, { name: 'manifest.json', data: manifest }]), /"index\.html" is 9 bytes/);
  });
});

describe('safeEntryName', () => {
  it('normalises ./ prefixes and trailing slashes, refuses the rest', () => {
    expect(safeEntryName('./guides/', 'a')).toBe('guides');
    expect(safeEntryName('guides/intro.html', 'a')).toBe('guides/intro.html');
    for (const bad of ['a//b', 'a/./b', '../x', 'x/..', '/x', 'C:x', 'c:\\x', 'a\\b', 'a\u0000b']) {
      expect(() => safeEntryName(bad, 'a.zip'), bad).toThrow(/a\.zip: entry .* rejected/);
    }
  });
});
