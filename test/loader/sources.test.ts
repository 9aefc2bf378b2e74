import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../../app/loader/load-bundle.js';
import { sampleSite, tarBundle, writeFile, writeSiteDir, zipBundle } from './helpers/bundle.js';
import { httpServer, httpsServer, loadOptions, selfSignedCert, sendBuffer, tempDir, type TestServer } from './helpers/servers.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

function stateDir(): string {
  const dir = tempDir();
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function server(s: Promise<TestServer>): Promise<TestServer> {
  const started = await s;
  cleanup.push(() => started.close());
  return started;
}

const read = (dir: string, rel: string) => fs.readFileSync(path.join(dir, rel), 'utf8');

describe('bundleUrl forms', () => {
  it('a plain path to a zip is verified and extracted to <stateDir>/sites/<version>', async () => {
    const state = stateDir();
    const zip = writeFile(state, 'in/bundle.zip', zipBundle(sampleSite('v1'), 'v1'));
    const site = await loadBundle(loadOptions(state, zip));
    expect(site).toMatchObject({ version: 'v1', dir: path.join(state, 'sites', 'v1'), projectId: 'aaaaaaaaaaaaaaaaaaaaaaaa', mounted: false, fromCache: false });
    expect(read(site.dir, 'guides/intro.html')).toContain('Intro v1');
    // No temp leftovers beside the version dir.
    expect(fs.readdirSync(path.join(state, 'sites'))).toEqual(['v1']);
  });

  it('a file:// URL works the same', async () => {
    const state = stateDir();
    const zip = writeFile(state, 'in/my bundle.zip', zipBundle(sampleSite('v2'), 'v2'));
    const site = await loadBundle(loadOptions(state, pathToFileURL(zip).href));
    expect(site.version).toBe('v2');
    expect(read(site.dir, 'index.html')).toContain('Home v2');
  });

  it('a relative path resolves against the given cwd', async () => {
    const state = stateDir();
    writeFile(state, 'in/b.zip', zipBundle(sampleSite('rel'), 'rel'));
    const site = await loadBundle({ ...loadOptions(state, 'in/b.zip'), cwd: state });
    expect(site.version).toBe('rel');
  });

  it('a directory is mounted in place (no copy), its manifest checked', async () => {
    const state = stateDir();
    const dir = writeSiteDir(path.join(state, 'mounted'), sampleSite('m1'), 'm1');
    const site = await loadBundle(loadOptions(state, dir));
    expect(site).toMatchObject({ version: 'm1', dir: fs.realpathSync(dir), mounted: true });
    expect(fs.existsSync(path.join(state, 'sites'))).toBe(false);
  });

  it('a mounted directory with a symlink is refused', async () => {
    const state = stateDir();
    const dir = writeSiteDir(path.join(state, 'mounted'), sampleSite('m1'));
    fs.symlinkSync('/etc/passwd', path.join(dir, 'passwd.html'));
    await expect(loadBundle(loadOptions(state, dir))).rejects.toThrow(/symbolic link/);
  });

  it('http:// downloads to a temp file, then verifies', async () => {
    const state = stateDir();
    const srv = await server(httpServer(sendBuffer(zipBundle(sampleSite('h1'), 'h1'))));
    const site = await loadBundle(loadOptions(state, `${srv.url}/v1/static-export/jobs/se_1/bundle.zip?expires=1&signature=secret`));
    expect(site.version).toBe('h1');
    expect(site.source).not.toContain('secret');
    expect(fs.readdirSync(path.join(state, 'sites'))).toEqual(['h1']);
  });

  it('follows a redirect to the bundle', async () => {
    const state = stateDir();
    const srv = await server(
      httpServer((req, res) => {
        if (req.url === '/moved.zip') res.writeHead(302, { location: '/real.zip' }).end();
        else sendBuffer(zipBundle(sampleSite('moved'), 'moved'))(req, res);
      }),
    );
    const site = await loadBundle(loadOptions(state, `${srv.url}/moved.zip`));
    expect(site.version).toBe('moved');
    expect(srv.hits).toBe(2);
  });

  it('retries a 503 with backoff, then succeeds', async () => {
    const state = stateDir();
    const body = zipBundle(sampleSite('r1'), 'r1');
    let calls = 0;
    const srv = await server(
      httpServer((req, res) => {
        calls += 1;
        if (calls < 3) {
          res.writeHead(503).end();
          return;
        }
        sendBuffer(body)(req, res);
      }),
    );
    const site = await loadBundle(loadOptions(state, `${srv.url}/b.zip`));
    expect(site.version).toBe('r1');
    expect(calls).toBe(3);
  });

  it('a 403 (expired link) fails at once with a hint, without retries', async () => {
    const state = stateDir();
    const srv = await server(httpServer((_req, res) => res.writeHead(403).end('{"error":"expired"}')));
    await expect(loadBundle(loadOptions(state, `${srv.url}/b.zip?signature=abc`))).rejects.toThrow(/HTTP 403.*expired or invalid signed link/);
    expect(srv.hits).toBe(1);
  });

  it('a download larger than fetch.maxBytes is refused (declared length and streamed bytes)', async () => {
    const state = stateDir();
    const body = zipBundle(sampleSite('big'), 'big');
    const declared = await server(httpServer(sendBuffer(body)));
    const opts = loadOptions(state, `${declared.url}/b.zip`);
    await expect(loadBundle({ ...opts, fetch: { ...opts.fetch, maxBytes: 1024 } })).rejects.toThrow(/more than 1024.*fetch\.maxBytes/);
    const chunked = await server(
      httpServer((_req, res) => {
        res.writeHead(200);
        res.end(body);
      }),
    );
    const opts2 = loadOptions(state, `${chunked.url}/b.zip`);
    await expect(loadBundle({ ...opts2, fetch: { ...opts2.fetch, maxBytes: 1024 } })).rejects.toThrow(/more than 1024 bytes/);
    expect(fs.readdirSync(path.join(state, 'sites'))).toEqual([]);
  });

  it('a server that never answers hits the total timeout, and is retried', async () => {
    const state = stateDir();
    const srv = await server(httpServer(() => undefined));
    const opts = loadOptions(state, `${srv.url}/b.zip`);
    const started = Date.now();
    await expect(loadBundle({ ...opts, fetch: { ...opts.fetch, totalTimeoutMs: 1000, retries: 1 } })).rejects.toThrow(/not finished within 1000 ms.*after 2 attempts/);
    expect(srv.hits).toBe(2);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a connection that cannot be made fails with the address, after the retries', async () => {
    const state = stateDir();
    const srv = await server(httpServer(() => undefined));
    const url = `${srv.url}/b.zip`;
    await srv.close();
    await expect(loadBundle(loadOptions(state, url))).rejects.toThrow(/ECONNREFUSED.*after 3 attempts/);
  });

  describe('https with the customer CA', () => {
    let tls: { key: string; cert: string };
    beforeAll(() => {
      const dir = tempDir('loader-tls-');
      tls = selfSignedCert(dir);
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('succeeds when the CA is trusted', async () => {
      const state = stateDir();
      const srv = await server(httpsServer(tls, sendBuffer(zipBundle(sampleSite('s1'), 's1'))));
      const site = await loadBundle(loadOptions(state, `${srv.url}/b.zip`, { fetch: { ...loadOptions(state, '').fetch, ca: tls.cert } }));
      expect(site.version).toBe('s1');
    });

    it('fails with a NODE_EXTRA_CA_CERTS hint when it is not, without retrying', async () => {
      const state = stateDir();
      const srv = await server(httpsServer(tls, sendBuffer(zipBundle(sampleSite('s1'), 's1'))));
      await expect(loadBundle(loadOptions(state, `${srv.url}/b.zip`))).rejects.toThrow(/TLS verification failed.*NODE_EXTRA_CA_CERTS/);
      expect(srv.hits).toBe(0);
    });
  });

  it('a pinned version already extracted is served without fetching (server down)', async () => {
    const state = stateDir();
    const srv = await server(httpServer(sendBuffer(zipBundle(sampleSite('p1'), 'p1'))));
    const url = `${srv.url}/b.zip?expires=1&signature=s`;
    const first = await loadBundle(loadOptions(state, url, { version: 'p1' }));
    expect(first.fromCache).toBe(false);
    await srv.close();
    const again = await loadBundle(loadOptions(state, url, { version: 'p1' }));
    expect(again).toMatchObject({ version: 'p1', dir: first.dir, fromCache: true });
    // Unpinned, the same link now fails: the pin is what makes the restart safe.
    await expect(loadBundle(loadOptions(state, url))).rejects.toThrow(/ECONNREFUSED/);
  });

  it('unsupported schemes and missing paths are named', async () => {
    const state = stateDir();
    await expect(loadBundle(loadOptions(state, 'ftp://host/b.zip'))).rejects.toThrow(/unsupported scheme "ftp:\/\/"/);
    await expect(loadBundle(loadOptions(state, path.join(state, 'nope.zip')))).rejects.toThrow(/staticExport\.bundleUrl: .*nope\.zip cannot be read: ENOENT/);
  });
});

describe('large files', () => {
  it('a file past the in-memory threshold is streamed to disk and verified like the rest', async () => {
    const state = stateDir();
    const big = Buffer.alloc(3 * 1024 * 1024 + 17, 'abcdefghij');
    const files = { ...sampleSite('big'), '_assets/video.0123abcd.bin': big };
    const zip = writeFile(state, 'in/b.zip', zipBundle(files, 'big'));
    const site = await loadBundle(loadOptions(state, zip));
    expect(fs.readFileSync(path.join(site.dir, '_assets/video.0123abcd.bin')).equals(big)).toBe(true);
    const tgz = writeFile(state, 'in/b.tgz', tarBundle(files, 'big-tar'));
    const fromTar = await loadBundle(loadOptions(state, tgz));
    expect(fs.readFileSync(path.join(fromTar.dir, '_assets/video.0123abcd.bin')).equals(big)).toBe(true);
  });
});

describe('tar.gz bundles', () => {
  it('with a manifest: the same checks, version from the manifest', async () => {
    const state = stateDir();
    const file = writeFile(state, 'in/b.tar.gz', tarBundle(sampleSite('t1'), 't1'));
    const site = await loadBundle(loadOptions(state, file));
    expect(site).toMatchObject({ version: 't1', projectId: 'aaaaaaaaaaaaaaaaaaaaaaaa' });
    expect(read(site.dir, 'guides/intro.html')).toContain('Intro t1');
  });

  it('without a manifest: structure checks only; the pin or the archive hash names the version', async () => {
    const state = stateDir();
    const file = writeFile(state, 'in/b.tgz', tarBundle(sampleSite('t2')));
    const unpinned = await loadBundle(loadOptions(state, file));
    expect(unpinned.version).toMatch(/^tar-[0-9a-f]{16}$/);
    expect(unpinned.projectId).toBeNull();
    const pinned = await loadBundle(loadOptions(state, file, { version: '2026-11-01' }));
    expect(pinned).toMatchObject({ version: '2026-11-01', dir: path.join(state, 'sites', '2026-11-01') });
  });

  it('a tar made by node-tar from a directory (./ prefixes) loads', async () => {
    const state = stateDir();
    const src = writeSiteDir(path.join(state, 'src'), sampleSite('t3'), 't3');
    const { create } = await import('tar');
    const file = path.join(state, 'b.tar.gz');
    await create({ gzip: true, cwd: src, file }, ['.']);
    const site = await loadBundle(loadOptions(state, file));
    expect(site.version).toBe('t3');
  });
});
