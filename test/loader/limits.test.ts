import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import * as tar from 'tar';
import { afterEach, describe, expect, it } from 'vitest';
import { loadBundle } from '../../app/loader/load-bundle.js';
import { removeTree } from '../../app/fs-tree.js';
import { sampleSite, tarBundle, writeFile, writeSiteDir, zipBundle } from './helpers/bundle.js';
import { rawTar } from './helpers/raw-tar.js';
import { rawZip } from './helpers/raw-zip.js';
import { loadOptions, tempDir } from './helpers/servers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeTree(d);
});

function state(): string {
  const dir = tempDir('limits-');
  dirs.push(dir);
  return dir;
}

/** Load `archive` from a fresh state dir; the refusal's code and message, and sites/ left empty. */
async function refusal(archive: Buffer, extra: Parameters<typeof loadOptions>[2] = {}): Promise<{ code: unknown; message: string; ms: number }> {
  const dir = state();
  const file = writeFile(dir, 'in/bundle.bin', archive);
  const started = performance.now();
  const err = (await loadBundle(loadOptions(dir, file, extra)).then(
    () => undefined,
    (e: unknown) => e,
  )) as (Error & { code?: unknown }) | undefined;
  const ms = performance.now() - started;
  expect(err, 'the bundle should have been refused').toBeInstanceOf(Error);
  const sites = path.join(dir, 'sites');
  expect(fs.existsSync(sites) ? fs.readdirSync(sites) : []).toEqual([]);
  return { code: err!.code, message: err!.message, ms };
}

const site = sampleSite('v1');
const deepName = (levels: number, leaf = 'x.html') => `${Array.from({ length: levels }, () => 'a').join('/')}/${leaf}`;

describe('entry depth and name length (finding 2)', () => {
  it('a zip entry 2,100 directories deep is refused with ENTRY_TOO_DEEP before anything is created', async () => {
    const { code, message } = await refusal(zipBundle(site, 'v1', [{ name: deepName(2100), data: 'x' }]));
    expect(code).toBe('ENTRY_TOO_DEEP');
    expect(message).toMatch(/bundle\.bin: entry "a\/a\/a.*…" \(4206 characters\) rejected: 2101 levels deep, more than 64$/);
  });

  it('the same depth as 2,100 directory entries is refused at the 65th', async () => {
    const entries = Array.from({ length: 2100 }, (_, i) => ({ name: `${Array.from({ length: i + 1 }, () => 'd').join('/')}/` }));
    const { code, message } = await refusal(zipBundle(site, 'v1', entries), { limits: { maxEntries: 10_000, maxUncompressedBytes: 1024 ** 2 } });
    expect(code).toBe('ENTRY_TOO_DEEP');
    expect(message).toMatch(/65 levels deep, more than 64/);
  });

  it('64 levels are accepted', async () => {
    const dir = state();
    const files = { ...site, [deepName(63)]: 'deep page' };
    const loaded = await loadBundle(loadOptions(dir, writeFile(dir, 'in/b.zip', zipBundle(files, 'v1'))));
    expect(fs.readFileSync(path.join(loaded.dir, deepName(63)), 'utf8')).toBe('deep page');
  });

  it('a long name or a long segment is refused with ENTRY_NAME_TOO_LONG', async () => {
    const long = await refusal(zipBundle(site, 'v1', [{ name: `${'abcdefgh/'.repeat(60)}${'x'.repeat(600)}.html`, data: 'x' }]));
    expect(long).toMatchObject({ code: 'ENTRY_NAME_TOO_LONG', message: expect.stringMatching(/name is 1145 bytes long, more than 1024/) as unknown });
    const segment = await refusal(zipBundle(site, 'v1', [{ name: `${'é'.repeat(128)}.html`, data: 'x' }]));
    expect(segment).toMatchObject({ code: 'ENTRY_NAME_TOO_LONG', message: expect.stringMatching(/a path segment is longer than 255 bytes/) as unknown });
  });

  it('a tarball entry deeper than 64 levels is refused the same way', async () => {
    const dir = state();
    const src = path.join(dir, 'src');
    const leaf = path.join(src, ...Array.from({ length: 70 }, () => 'd'));
    fs.mkdirSync(leaf, { recursive: true });
    fs.writeFileSync(path.join(leaf, 'x.html'), 'x');
    fs.writeFileSync(path.join(src, 'index.html'), 'home');
    const out = path.join(dir, 'deep.tar.gz');
    await tar.create({ gzip: true, cwd: src, file: out }, ['index.html', 'd']);
    const { code, message } = await refusal(fs.readFileSync(out));
    expect(code).toBe('ENTRY_TOO_DEEP');
    expect(message).toMatch(/deep\.tar\.gz|bundle\.bin/);
  });

  it('a mounted directory deeper than 64 levels is refused, without walking it by recursion', async () => {
    const dir = state();
    const mounted = writeSiteDir(path.join(dir, 'mounted'), site);
    fs.mkdirSync(path.join(mounted, ...Array.from({ length: 100 }, () => 'd')), { recursive: true });
    const err = (await loadBundle(loadOptions(dir, mounted)).catch((e: unknown) => e)) as Error & { code?: string };
    expect(err.code).toBe('ENTRY_TOO_DEEP');
  });
});

describe('reserved version names (finding 3)', () => {
  for (const version of ['ACTIVE', 'active', 'Active', 'NUL', 'com1.txt']) {
    it(`a zip bundle versioned "${version}" is refused with RESERVED_VERSION`, async () => {
      const { code, message } = await refusal(zipBundle(sampleSite(version), version));
      expect(code).toBe('RESERVED_VERSION');
      expect(message).toContain(`manifest.json: version "${version}" is`);
    });
  }

  it('a tarball manifest versioned ".x" is refused', async () => {
    const { code, message } = await refusal(tarBundle(sampleSite('.x'), '.x'));
    expect(code).toBe('RESERVED_VERSION');
    expect(message).toMatch(/version "\.x" starts with "\."/);
  });
});

describe('high-ratio archives end in bounded time (finding 4)', () => {
  it('a tar.gz of zeros past 1000:1 is refused with INFLATE_RATIO, not left hanging', async () => {
    const archive = zlib.gzipSync(rawTar([{ name: 'index.html', data: Buffer.alloc(48 * 1024 * 1024) }], false), { level: 9 });
    expect(archive.length).toBeLessThan(64 * 1024);
    const { code, message, ms } = await refusal(archive, { limits: { maxEntries: 100, maxUncompressedBytes: 1024 ** 3 } });
    expect(code).toBe('INFLATE_RATIO');
    expect(message).toMatch(/bundle\.bin: the compressed data inflates more than 1000 times its size \(a decompression bomb\); refused/);
    expect(ms).toBeLessThan(20_000);
  }, 30_000);

  it('a zip entry of zeros past 1000:1 is refused before it is inflated', async () => {
    const big = Buffer.alloc(48 * 1024 * 1024);
    const files = { ...site, 'zeros.bin': big };
    const { code, message, ms } = await refusal(zipBundle(files, 'v1'), { limits: { maxEntries: 100, maxUncompressedBytes: 1024 ** 3 } });
    expect(code).toBe('INFLATE_RATIO');
    expect(message).toMatch(/entry "zeros\.bin" inflates \d+ times its compressed size, more than 1000/);
    expect(ms).toBeLessThan(5000);
  }, 30_000);

  it('high but honest ratios below the rule still load (zip and tar)', async () => {
    const dir = state();
    // Every 64th byte varies: about 60:1 at level 9.
    const data = Buffer.alloc(24 * 1024 * 1024);
    for (let i = 0; i < data.length; i += 64) data[i] = i % 251;
    const files = { ...site, 'big.bin': data };
    const zip = await loadBundle(loadOptions(dir, writeFile(dir, 'in/b.zip', zipBundle(files, 'z1')), { limits: { maxEntries: 100, maxUncompressedBytes: 1024 ** 3 } }));
    expect(fs.statSync(path.join(zip.dir, 'big.bin')).size).toBe(data.length);
    const tgz = await loadBundle(loadOptions(dir, writeFile(dir, 'in/b.tar.gz', tarBundle(files, 't1')), { limits: { maxEntries: 100, maxUncompressedBytes: 1024 ** 3 } }));
    expect(fs.statSync(path.join(tgz.dir, 'big.bin')).size).toBe(data.length);
  }, 30_000);

  it('the verify watchdog ends a load that takes too long, with VERIFY_TIMEOUT, and cleans up', async () => {
    const dir = state();
    // Honest content, just more than can be extracted within the (test-sized) deadline.
    const data = Buffer.alloc(32 * 1024 * 1024);
    for (let i = 0; i < data.length; i += 64) data[i] = i % 251;
    const file = writeFile(dir, 'in/slow.tar.gz', tarBundle({ ...site, 'big.bin': data }, 's1'));
    const started = performance.now();
    const err = (await loadBundle(loadOptions(dir, file, { verifyTimeoutMs: 20, limits: { maxEntries: 100, maxUncompressedBytes: 1024 ** 3 } })).catch((e: unknown) => e)) as Error & {
      code?: string;
    };
    expect(err.code).toBe('VERIFY_TIMEOUT');
    expect(err.message).toBe('slow.tar.gz: extraction and verification did not finish within 20 ms (staticExport.verifyTimeoutMs); refused');
    expect(performance.now() - started).toBeLessThan(5000);
    expect(fs.readdirSync(path.join(dir, 'sites'))).toEqual([]);
  }, 30_000);
});
