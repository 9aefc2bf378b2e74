import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import supertest from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, parseConfig } from '../../config/load.js';
import type { Config } from '../../config/schema.js';
import { sitesCommand } from '../../app/commands/sites.js';
import { packageRoot } from '../../app/paths.js';
import { createSiteFeature } from '../../app/site/feature.js';
import { createAppContext } from '../../app/create-context.js';
import { createLogger } from '../../app/logger.js';
import { manifestFor, sampleSite, writeFile, writeSiteDir, zipBundle } from '../loader/helpers/bundle.js';
import { httpServer, tempDir, type TestServer } from '../loader/helpers/servers.js';
import { bundleFile, fastLoader, listen, raw, rmDir, siteAppliance, sitesDir } from './helpers.js';
import { writeTinyDocs } from '../helpers/appliance.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

function state(): string {
  const dir = tempDir('site-feature-');
  cleanup.push(() => rmDir(dir));
  return dir;
}

function appliance(stateDir: string, staticExport: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const a = siteAppliance(stateDir, { staticExport: { enabled: true, ...fastLoader, ...staticExport }, ...extra });
  cleanup.push(() => a.close());
  return a;
}

const withExport = (config: Readonly<Config>, staticExport: Partial<Config['staticExport']>): Readonly<Config> =>
  parseConfig({ ...config, staticExport: { ...config.staticExport, ...staticExport } }, { source: 'test' });

const body = async (app: Parameters<typeof supertest>[0], url = '/') => (await supertest(app).get(url)).text;

async function until(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** An HTTP server whose answer the test can change: a bundle, or a status. */
async function bundleServer(): Promise<TestServer & { serve(b: Buffer | number): void }> {
  let answer: Buffer | number = 503;
  const srv = await httpServer((_req, res) => {
    if (typeof answer === 'number') res.writeHead(answer).end();
    else res.writeHead(200, { 'content-length': answer.length }).end(answer);
  });
  cleanup.push(() => srv.close());
  return Object.assign(srv, { serve: (b: Buffer | number) => void (answer = b) });
}

describe('staticExport.example.json', () => {
  it('is the block an operator copies, accepted by the real config loader', () => {
    const file = path.join(packageRoot(), 'staticExport.example.json');
    const config = loadConfig({ file, env: {}, cwd: tempDir('example-json-') });
    expect(config.staticExport.enabled).toBe(true);
    expect(config.staticExport.bundleUrl).toMatch(/^https:\/\/.*\/v1\/static-export\/jobs\/se_[0-9a-f]{16}\/bundle\.zip\?expires=\d+&kid=\w+&signature=/);
    expect(config.staticExport.version).toBe('2026-11-01');
    expect(Object.keys(JSON.parse(fs.readFileSync(file, 'utf8')) as object)).toEqual(['staticExport']);
  });
});

describe('start-up and restarts', () => {
  it('a restart with the pinned version serves the cache without fetching, even with the link dead', async () => {
    const dir = state();
    const srv = await bundleServer();
    srv.serve(zipBundle(sampleSite('2026-11-01'), '2026-11-01'));
    const url = `${srv.url}/bundle.zip?expires=1&signature=x`;
    const first = appliance(dir, { bundleUrl: url, version: '2026-11-01' });
    await first.start();
    await first.site.idle();
    expect(await body(first.app)).toContain('Home 2026-11-01');
    await first.close();
    cleanup.pop();

    srv.serve(403); // the link expired
    const hitsBefore = srv.hits;
    const second = appliance(dir, { bundleUrl: url, version: '2026-11-01' });
    const started = performance.now();
    await second.start();
    await second.site.idle();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(srv.hits).toBe(hitsBefore);
    expect(await body(second.app)).toContain('Home 2026-11-01');
    expect(second.site.ready!()).toEqual({ ok: true, critical: false, detail: 'serving 2026-11-01 (from cache)', sites: [{ site: 'bundle', served: true, detail: 'serving 2026-11-01 (from cache)' }] });
  });

  it('an unpinned restart keeps serving the last active site while the fetch fails, and says why', async () => {
    const dir = state();
    const srv = await bundleServer();
    srv.serve(zipBundle(sampleSite('v1'), 'v1'));
    const first = appliance(dir, { bundleUrl: `${srv.url}/b.zip` });
    await first.start();
    await first.site.idle();
    await first.close();
    cleanup.pop();

    srv.serve(403);
    const second = appliance(dir, { bundleUrl: `${srv.url}/b.zip` });
    await second.start();
    // Served at once from the active pointer, before the loader has finished.
    expect(await body(second.app)).toContain('Home v1');
    await second.site.idle();
    // Readiness in the same tick as the failed load: the 50 ms retry may be under way after a request.
    expect(second.site.ready!().detail).toMatch(/^serving v1; last load refused: .*HTTP 403 .*\(retrying will not cure it: [^)]*\); retrying in \d+ s$/);
    expect(await body(second.app)).toContain('Home v1');
  });

  it('a directory bundleUrl is served in place and never pruned', async () => {
    const dir = state();
    const mounted = writeSiteDir(path.join(dir, 'site-src'), sampleSite('m1'), 'm1');
    const a = appliance(dir, { bundleUrl: mounted, keepVersions: 1 });
    await a.start();
    await a.site.idle();
    expect(await body(a.app, '/guides/intro')).toContain('Intro m1');
    expect(a.site.ready!().detail).toBe('serving m1 (mounted)');
    expect(a.site.current()!.root).toBe(fs.realpathSync(mounted));
    // A new file in the mounted directory is served without a reload.
    fs.writeFileSync(path.join(mounted, 'late.html'), 'late page');
    expect(await body(a.app, '/late')).toBe('late page');
    await a.site.reload(withExport(a.ctx.config, { bundleUrl: bundleFile(dir, 'v2') }));
    expect(fs.existsSync(path.join(mounted, 'index.html'))).toBe(true);
  });
});

describe('failures never replace the site being served', () => {
  it('a bad bundle keeps the current site, /readyz explains, and the loader retries with backoff until it succeeds', async () => {
    const dir = state();
    const srv = await bundleServer();
    srv.serve(zipBundle(sampleSite('v1'), 'v1'));
    const a = appliance(dir, { bundleUrl: `${srv.url}/b.zip` });
    await a.start();
    await a.site.idle();
    expect(await body(a.app)).toContain('Home v1');

    // v2 arrives with a file that does not match its manifest.
    const good = sampleSite('v2');
    srv.serve(zipBundle({ ...good, 'index.html': 'tampered' }, 'v2', [], manifestFor(good, 'v2')));
    const hits = srv.hits;
    await a.site.reload(withExport(a.ctx.config, { bundleUrl: `${srv.url}/b.zip?v=2` }));
    // Readiness first, in the same tick as the failed load: the first retry is due 50 ms later, and
    // on a busy machine the request below can take longer than that (then it says "loading").
    const check = a.site.ready!();
    expect(check.ok).toBe(true);
    expect(check.detail).toMatch(/^serving v1; last load refused: .*"index\.html" is 8 bytes, manifest\.json says \d+ \(retrying will not cure it: [^)]*\); retrying in \d+ s$/);
    expect(await body(a.app)).toContain('Home v1');
    expect(fs.readdirSync(sitesDir(dir)).filter((n) => !n.startsWith('.') && n !== 'ACTIVE')).toEqual(['v1']);

    // The retries happen by themselves; once the bundle is fixed the next one activates it.
    await until(() => srv.hits >= hits + 3);
    srv.serve(zipBundle(good, 'v2'));
    await until(async () => (await body(a.app)).includes('Home v2'));
    expect(a.site.ready!().detail).toBe('serving v2');
  }, 30_000);

  it('with nothing served, a failing source gives 503 and the reason in readiness', async () => {
    const dir = state();
    const a = appliance(dir, { bundleUrl: writeFile(dir, 'x.zip', Buffer.from('not a zip')) });
    await a.start();
    await a.site.idle();
    // Readiness before the request, in the same tick as the failed load (the retry is due in 50 ms).
    // Nothing served of the one configured site: critical (/readyz 503, docs/operations.md "Readiness").
    expect(a.site.ready!()).toMatchObject({ ok: false, critical: true, sites: [{ site: 'bundle', served: false, refused: true }] });
    expect(a.site.ready!().detail).toMatch(/^last load refused: x\.zip: neither a zip nor a \(gzipped\) tar archive \(retrying will not cure it: [^)]*\); retrying in \d+ s$/);
    const res = await supertest(a.app).get('/').expect(503);
    expect(res.text).toContain('Documentation unavailable');
  });

  it('keeps the last keepVersions versions and never the active one', async () => {
    const dir = state();
    const a = appliance(dir, { bundleUrl: bundleFile(dir, 'v1'), keepVersions: 3 });
    await a.start();
    await a.site.idle();
    for (const v of ['v2', 'v3', 'v4', 'v5']) {
      await new Promise((r) => setTimeout(r, 15)); // distinct activation times
      await a.site.reload(withExport(a.ctx.config, { bundleUrl: bundleFile(dir, v) }));
    }
    expect(fs.readdirSync(sitesDir(dir)).filter((n) => n.startsWith('v')).sort()).toEqual(['v3', 'v4', 'v5']);
    expect(await body(a.app)).toContain('Home v5');
    expect(JSON.parse(fs.readFileSync(path.join(sitesDir(dir), 'ACTIVE'), 'utf8'))).toMatchObject({ version: 'v5', dir: path.join(sitesDir(dir), 'v5') });
  });
});

describe('rollback', () => {
  function cli(configFile: string, argv: string[]) {
    const out = new PassThrough();
    const err = new PassThrough();
    const chunks: string[] = [];
    out.on('data', (c: Buffer) => chunks.push(c.toString()));
    err.on('data', (c: Buffer) => chunks.push(c.toString()));
    return sitesCommand.run([...argv, '--config', configFile], { stdout: out, stderr: err, env: {}, cwd: path.dirname(configFile) }).then((code) => ({ code, output: chunks.join('') }));
  }

  it('rolls back to a kept version after a bad bundle, survives reloads, and rolls forward when the config changes', async () => {
    const dir = state();
    const v1 = bundleFile(dir, 'v1');
    const v2 = bundleFile(dir, 'v2');
    const a = appliance(dir, { bundleUrl: v1 });
    await a.start();
    await a.site.idle();
    const cfgV2 = withExport(a.ctx.config, { bundleUrl: v2 });
    await a.site.reload(cfgV2);
    expect(await body(a.app)).toContain('Home v2');

    // v2 turns out to be bad content: the operator rolls back from the CLI and sends SIGHUP.
    const configFile = writeFile(dir, 'config.json', Buffer.from(JSON.stringify({ stateDir: dir, organizations: [{ id: 'org_a', name: 'A' }], staticExport: { enabled: true, bundleUrl: v2 } })));
    const listed = await cli(configFile, ['list']);
    expect(listed.code).toBe(0);
    expect(listed.output).toMatch(/^\* v2 .*\n {2}v1 /m);
    const rolled = await cli(configFile, ['rollback', 'v1']);
    expect(rolled).toMatchObject({ code: 0 });
    expect(rolled.output).toContain('Active site is now v1');
    await a.site.reload(cfgV2);
    expect(await body(a.app)).toContain('Home v1');
    expect(a.ctx.stores.settings.get('site.active.version')).toBe('v1');

    // Same config again (another SIGHUP): the rollback holds, v2 is not fetched back.
    await a.site.reload(cfgV2);
    expect(await body(a.app)).toContain('Home v1');

    // A new bundle that fails verification does not disturb the rolled-back site.
    const bad = writeFile(dir, 'bundles/bad.zip', zipBundle(sampleSite('v3'), 'v3', [{ name: '../evil', data: 'x' }]));
    await a.site.reload(withExport(a.ctx.config, { bundleUrl: bad }));
    expect(await body(a.app)).toContain('Home v1');

    // A good new bundle rolls forward.
    await a.site.reload(withExport(a.ctx.config, { bundleUrl: bundleFile(dir, 'v3') }));
    expect(await body(a.app)).toContain('Home v3');
  });

  it('names the available versions when the one asked for is unknown', async () => {
    const dir = state();
    const a = appliance(dir, { bundleUrl: bundleFile(dir, 'v1') });
    await a.start();
    await a.site.idle();
    const configFile = writeFile(dir, 'config.json', Buffer.from(JSON.stringify({ stateDir: dir })));
    const res = await cli(configFile, ['rollback', 'v9']);
    expect(res.code).toBe(1);
    expect(res.output).toContain('no extracted version "v9". Available: v1');
  });
});

describe('re-roll under load', () => {
  it('reload(config) swaps the site while requests run, and not one request fails', async () => {
    const dir = state();
    const a = appliance(dir, { bundleUrl: bundleFile(dir, 'v1') });
    await a.start();
    await a.site.idle();
    const server = await listen(a.app);
    cleanup.push(() => server.close());
    const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
    cleanup.push(() => agent.destroy());

    const statuses = new Map<number, number>();
    const seen = new Set<string>();
    let running = true;
    const worker = async () => {
      while (running) {
        const res = await raw(server.port, '/guides/intro', { agent });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        seen.add(/Intro (v\d)/.exec(res.body.toString())?.[1] ?? 'none');
      }
    };
    const workers = Array.from({ length: 16 }, worker);
    for (const v of ['v2', 'v3', 'v4']) {
      await new Promise((r) => setTimeout(r, 100));
      await a.site.reload(withExport(a.ctx.config, { bundleUrl: bundleFile(dir, v) }));
    }
    await new Promise((r) => setTimeout(r, 100));
    running = false;
    await Promise.all(workers);
    expect([...statuses.keys()]).toEqual([200]);
    expect(statuses.get(200)).toBeGreaterThan(100);
    expect(seen).toEqual(new Set(['v1', 'v2', 'v3', 'v4']));
  }, 30_000);
});

describe('first start with nothing configured', () => {
  function exampleAppliance(dir: string, calls: string[]) {
    // No organization declared: the bootstrap creates `default` with the example docs project.
    const config = parseConfig({ stateDir: dir, log: { level: 'silent' } }, { source: 'test' });
    const ctx = createAppContext({ config, log: createLogger('silent') });
    const site = createSiteFeature(ctx, {
      exportSite: async (opts) => {
        calls.push(opts.version);
        fs.writeFileSync(opts.outZip, zipBundle(sampleSite(opts.version), opts.version, [], manifestFor(sampleSite(opts.version), opts.version, { projectId: opts.projectId })));
        return { pageCount: 3 };
      },
    });
    cleanup.push(async () => {
      await site.stop!();
      ctx.db.close();
    });
    return { ctx, site };
  }

  it('exports the example project once in the background, serves it, and later starts reuse it', async () => {
    const dir = state();
    const calls: string[] = [];
    const { ctx, site } = exampleAppliance(dir, calls);
    await site.start!();
    expect(site.ready!().detail).toBe('exporting the example docs');
    await site.idle();
    expect(calls).toHaveLength(1);
    const project = ctx.stores.projects.list()[0]!;
    expect(ctx.stores.settings.get('site.active.projectId')).toBe(project.id);
    expect(site.ready!()).toEqual({ ok: true, critical: false, detail: `serving ${calls[0]}`, sites: [{ site: 'bundle', served: true, detail: `serving ${calls[0]}` }] });
    const res = await raw((await listenFeature(site)).port, '/');
    expect(res.body.toString()).toContain(`Home ${calls[0]}`);
    await site.stop!();
    ctx.db.close();
    cleanup.pop();

    const again = exampleAppliance(dir, calls);
    await again.site.start!();
    await again.site.idle();
    expect(calls).toHaveLength(1);
    expect(again.site.current()?.version).toBe(calls[0]);
  });

  it('uses the real renderer when nothing is injected (the only project is the one exported)', async () => {
    const dir = state();
    const source = writeTinyDocs(path.join(dir, 'docs'));
    const config = parseConfig(
      { stateDir: dir, log: { level: 'silent' }, organizations: [{ id: 'org_a', name: 'A' }], projects: [{ id: 'dddddddddddddddddddddddd', orgId: 'org_a', name: 'Docs', domain: 'docs.a.internal', sourceDir: source }] },
      { source: 'test' },
    );
    const ctx = createAppContext({ config, log: createLogger('silent') });
    const site = createSiteFeature(ctx);
    cleanup.push(async () => {
      await site.stop!();
      ctx.db.close();
    });
    await site.start!();
    await site.idle();
    expect(site.loader.status.lastError).toBeUndefined();
    expect(ctx.stores.settings.get('site.active.projectId')).toBe('dddddddddddddddddddddddd');
    const server = await listenFeature(site);
    const page = await raw(server.port, '/guides/intro');
    expect(page.status).toBe(200);
    expect(page.body.toString()).toContain('Run the installer.');
    expect((await raw(server.port, '/')).body.toString()).toContain('Welcome to the tiny docs.');
  }, 60_000);

  it('gives way to a bundle configured by SIGHUP while it runs', async () => {
    const dir = state();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const config = parseConfig({ stateDir: dir, log: { level: 'silent' } }, { source: 'test' });
    const ctx = createAppContext({ config, log: createLogger('silent') });
    const site = createSiteFeature(ctx, {
      exportSite: async (opts) => {
        await gate;
        fs.writeFileSync(opts.outZip, zipBundle(sampleSite(opts.version), opts.version));
        return { pageCount: 3 };
      },
    });
    cleanup.push(async () => {
      await site.stop!();
      ctx.db.close();
    });
    await site.start!();
    const reloading = site.reload(withExport(config, { enabled: true, bundleUrl: bundleFile(dir, 'configured') }));
    release();
    await reloading;
    await site.idle();
    expect(site.current()?.version).toBe('configured');
    expect(site.ready!().detail).toBe('serving configured');
  });

  it('is skipped with site.exampleOnFirstStart false', async () => {
    const dir = state();
    const config = parseConfig({ stateDir: dir, log: { level: 'silent' }, site: { exampleOnFirstStart: false } }, { source: 'test' });
    const ctx = createAppContext({ config, log: createLogger('silent') });
    let called = false;
    const site = createSiteFeature(ctx, {
      exportSite: async () => {
        called = true;
        return { pageCount: 0 };
      },
    });
    await site.start!();
    await site.idle();
    await site.stop!();
    ctx.db.close();
    expect(called).toBe(false);
    expect(site.current()).toBeUndefined();
  });

  async function listenFeature(site: ReturnType<typeof createSiteFeature>) {
    const express = (await import('express')).default;
    const app = express();
    app.use(site.siteRouter!);
    const server = await listen(app);
    cleanup.push(() => server.close());
    return server;
  }
});

describe('config changes on reload', () => {
  it('applies a new Content-Security-Policy', async () => {
    const dir = state();
    const a = appliance(dir, { bundleUrl: bundleFile(dir, 'v1') });
    await a.start();
    await a.site.idle();
    expect((await supertest(a.app).get('/')).headers['content-security-policy']).toBe(a.ctx.config.site.contentSecurityPolicy);
    const next = parseConfig({ ...a.ctx.config, site: { ...a.ctx.config.site, contentSecurityPolicy: "default-src 'none'" } }, { source: 'test' });
    await a.site.reload(next);
    expect((await supertest(a.app).get('/')).headers['content-security-policy']).toBe("default-src 'none'");
  });
});
