import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import supertest from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/load.js';
import type { Config } from '../../config/schema.js';
import { sampleSite, writeFile, zipBundle } from '../loader/helpers/bundle.js';
import { rawTar } from '../loader/helpers/raw-tar.js';
import { tempDir } from '../loader/helpers/servers.js';
import { bundleFile, fastLoader, rmDir, siteAppliance, sitesDir } from './helpers.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

function state(): string {
  const dir = tempDir('hostile-site-');
  cleanup.push(() => rmDir(dir));
  return dir;
}

/** Retries far apart: readiness is read after a failure without a retry already under way. */
function appliance(stateDir: string, staticExport: Record<string, unknown>) {
  const a = siteAppliance(stateDir, { staticExport: { enabled: true, ...fastLoader, retry: { minMs: 60_000, maxMs: 60_000 }, ...staticExport } });
  cleanup.push(() => a.close());
  return a;
}

const withExport = (config: Readonly<Config>, staticExport: Partial<Config['staticExport']>): Readonly<Config> =>
  parseConfig({ ...config, staticExport: { ...config.staticExport, ...staticExport } }, { source: 'test' });

const readyz = async (a: ReturnType<typeof appliance>) => (await supertest(a.app).get('/').then(() => a.site.ready!())).detail;

/**
 * A directory chain `levels` deep built bottom-up by renames, so no call ever names a path longer
 * than a few components: the whole chain is far past PATH_MAX (as a crashed extraction left it).
 */
function deepChain(parent: string, name: string, levels: number): void {
  let current = fs.mkdtempSync(path.join(parent, 'chain-'));
  fs.writeFileSync(path.join(current, 'leaf.html'), 'leaf');
  for (let i = 0; i < levels; i++) {
    const up = fs.mkdtempSync(path.join(parent, 'chain-'));
    fs.renameSync(current, path.join(up, 'a'));
    current = up;
  }
  fs.renameSync(current, path.join(parent, name));
}

describe('start-up survives what a crash left (finding 2)', () => {
  it('a sites/.extract-* tree 2,100 levels deep is removed at start and the site is served', async () => {
    const dir = state();
    fs.mkdirSync(sitesDir(dir), { recursive: true });
    deepChain(sitesDir(dir), '.extract-0123456789ab', 2100);
    const a = appliance(dir, { bundleUrl: bundleFile(dir, 'v1') });
    await a.start();
    await a.site.idle();
    expect((await supertest(a.app).get('/')).text).toContain('Home v1');
    expect(fs.readdirSync(sitesDir(dir)).sort()).toEqual(['ACTIVE', 'v1']);
  });
});

describe('a bundle cannot take a name the loader uses (finding 3)', () => {
  it('a bundle versioned ACTIVE or active is refused; the active pointer survives a restart', async () => {
    const dir = state();
    const a = appliance(dir, { bundleUrl: bundleFile(dir, 'v1') });
    await a.start();
    await a.site.idle();
    for (const version of ['ACTIVE', 'active']) {
      const file = writeFile(dir, `bundles/${version}-x.zip`, zipBundle(sampleSite(version), version));
      await a.site.reload(withExport(a.ctx.config, { bundleUrl: file }));
      expect(await readyz(a)).toMatch(new RegExp(`^serving v1; last load refused: ${version}-x\\.zip: manifest\\.json: version "${version}" is reserved for the loader's active pointer \\(sites/ACTIVE\\); give the bundle another version \\(retrying will not cure it: [^)]*\\); retrying in \\d+ s$`));
      expect((await supertest(a.app).get('/')).text).toContain('Home v1');
    }
    expect(fs.statSync(path.join(sitesDir(dir), 'ACTIVE')).isFile()).toBe(true);
    await a.close();
    cleanup.pop();

    const b = appliance(dir, { bundleUrl: bundleFile(dir, 'v2') });
    await b.start();
    expect((await supertest(b.app).get('/')).text).toContain('Home v1');
    await b.site.idle();
    expect((await supertest(b.app).get('/')).text).toContain('Home v2');
    expect(JSON.parse(fs.readFileSync(path.join(sitesDir(dir), 'ACTIVE'), 'utf8'))).toMatchObject({ version: 'v2' });
  });

  it('a state dir damaged by the old bug (sites/ACTIVE a directory) recovers at the next activation', async () => {
    const dir = state();
    fs.mkdirSync(path.join(sitesDir(dir), 'ACTIVE'), { recursive: true });
    fs.writeFileSync(path.join(sitesDir(dir), 'ACTIVE', 'index.html'), 'a bundle extracted over the pointer');
    const a = appliance(dir, { bundleUrl: bundleFile(dir, 'v1') });
    await a.start();
    await a.site.idle();
    expect((await supertest(a.app).get('/')).text).toContain('Home v1');
    expect(JSON.parse(fs.readFileSync(path.join(sitesDir(dir), 'ACTIVE'), 'utf8'))).toMatchObject({ version: 'v1' });
  });

  it('staticExport.version "ACTIVE" is refused when the config is loaded', () => {
    expect(() => parseConfig({ staticExport: { enabled: true, bundleUrl: '/x.zip', version: 'active' } }, { source: 'test' })).toThrow(
      /staticExport\.version: "active" is reserved for the loader's active pointer/,
    );
  });
});

describe('a high-ratio tar.gz ends with a refusal the operator can read (finding 4)', () => {
  it('readiness reports the refusal instead of "loading" for ever, and a reload still runs', async () => {
    const dir = state();
    const bomb = writeFile(dir, 'bundles/zeros.tar.gz', zlib.gzipSync(rawTar([{ name: 'index.html', data: Buffer.alloc(48 * 1024 * 1024) }], false), { level: 9 }));
    const a = appliance(dir, { bundleUrl: bomb, maxUncompressedBytes: 1024 ** 3 });
    await a.start();
    await a.site.idle();
    expect(await readyz(a)).toMatch(/^last load refused: zeros\.tar\.gz: the compressed data inflates more than 1000 times its size \(a decompression bomb\); refused \(retrying will not cure it: [^)]*\); retrying in \d+ s$/);
    await a.site.reload(withExport(a.ctx.config, { bundleUrl: bundleFile(dir, 'v1') }));
    expect((await supertest(a.app).get('/')).text).toContain('Home v1');
    expect(fs.readdirSync(sitesDir(dir)).sort()).toEqual(['ACTIVE', 'v1']);
  }, 30_000);
});
