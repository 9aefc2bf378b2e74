/**
 * Issue 37, finding 9: /readyz tells the truth about readers. A real appliance's loader fetches
 * from a local HTTP server that answers 403, 404, a corrupt archive or 503; readiness, the site
 * listener and the log agree, refusals retrying cannot cure are named as such, and the retries
 * keep a capped exponential backoff.
 */
import supertest from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import type { PublishFeature } from '../../app/publish/feature.js';
import type { SiteFeature } from '../../app/site/feature.js';
import { createTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { sampleSite, zipBundle } from '../loader/helpers/bundle.js';
import { httpServer, type TestServer } from '../loader/helpers/servers.js';
import { fastLoader } from './helpers.js';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

const SECRET = 'sig-never-shown-7f3a';

/** A bundle source whose answer the test sets: a status, or bytes served with 200. */
async function source(): Promise<TestServer & { answer(a: number | Buffer): void }> {
  let answer: number | Buffer = 503;
  const srv = await httpServer((_req, res) => {
    if (typeof answer === 'number') res.writeHead(answer).end();
    else res.writeHead(200, { 'content-length': answer.length }).end(answer);
  });
  cleanup.push(() => srv.close());
  return Object.assign(srv, { answer: (a: number | Buffer) => void (answer = a) });
}

async function appliance(bundleUrl: string, retry = fastLoader.retry): Promise<TestAppliance> {
  const t = createTestAppliance({ config: { staticExport: { enabled: true, bundleUrl, ...fastLoader, retry } } });
  cleanup.push(() => t.close());
  await t.start();
  return t;
}

const site = (t: TestAppliance) => t.features.find((f) => f.name === 'site') as SiteFeature;
/** The loader's log lines about failed loads, parsed. */
const loadLogs = (t: TestAppliance) => t.logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => typeof l.msg === 'string' && /^site load (refused|failed)/.test(l.msg));

async function until(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('readiness with one configured site', () => {
  for (const [name, answer, reason] of [
    ['HTTP 403 (an expired signed link)', 403, /HTTP 403 \(an expired or invalid signed link: generate a fresh bundleUrl\)/],
    ['HTTP 404', 404, /HTTP 404/],
    ['a corrupt archive', Buffer.from('this is not a zip file at all'), /neither a zip nor a \(gzipped\) tar archive/],
  ] as const) {
    it(`nothing served and the source refuses (${name}): /readyz 503 naming the refusal, readers 503, the log says so, retries back off to the cap`, async () => {
      const srv = await source();
      srv.answer(answer);
      const t = await appliance(`${srv.url}/bundle.zip?X-Amz-Signature=${SECRET}`);
      await until(() => loadLogs(t).length >= 5);

      const res = await t.api().get('/readyz').expect(503);
      expect(res.body.status).toBe('not ready');
      const check = res.body.checks.site;
      expect(check).toMatchObject({ ok: false, critical: true });
      // Between attempts it ends with when the next is due; during one it says it is loading again.
      expect(check.sites).toEqual([{ site: 'bundle', served: false, refused: true, detail: expect.stringMatching(/^(loading the bundle again; )?last load refused: /) }]);
      expect(check.detail).toMatch(reason);
      expect(check.detail).toContain('retrying will not cure it: replace staticExport.bundleUrl or the bundle behind it, then SIGHUP');
      expect(check.detail).toMatch(/(; retrying in \d+ s|then SIGHUP\))$/);
      expect(JSON.stringify(res.body)).not.toContain(SECRET);
      const reader = await supertest(t.site).get('/').set('Host', 'docs.test.internal');
      expect(reader.status).toBe(503);

      // The log names the refusal and never claims a site stays served; the delays double to the cap.
      const lines = loadLogs(t);
      for (const l of lines) {
        expect(l).toMatchObject({ level: 50, refused: true, serving: null, msg: 'site load refused (retrying will not cure it: replace staticExport.bundleUrl or the bundle behind it, then SIGHUP); no site is served (readers get 503) until a load succeeds' });
      }
      expect(lines.slice(0, 5).map((l) => l.retryInMs)).toEqual([50, 100, 200, 200, 200]);
      expect(t.logs.join('\n')).not.toContain('stays served');
      expect(t.logs.join('\n')).not.toContain(SECRET);

      // Once the source has the bundle, the next retry serves it and readiness says ready.
      srv.answer(zipBundle(sampleSite('v1'), 'v1'));
      await until(() => site(t).current()?.version === 'v1');
      const ok = await t.api().get('/readyz').expect(200);
      expect(ok.body.status).toBe('ready');
      expect(ok.body.checks.site).toEqual({ ok: true, critical: false, detail: 'serving v1', sites: [{ site: 'bundle', served: true, detail: 'serving v1' }] });
    });
  }

  it('a failure retrying may cure (HTTP 503) is not called a refusal; /readyz is still 503 while nothing is served', async () => {
    const srv = await source();
    srv.answer(503);
    // The next attempt well after the checks below (it would say "loading the bundle" meanwhile).
    const t = await appliance(`${srv.url}/bundle.zip`, { minMs: 30_000, maxMs: 30_000 });
    await until(() => loadLogs(t).length >= 1);
    const res = await t.api().get('/readyz').expect(503);
    expect(res.body.checks.site.sites).toEqual([{ site: 'bundle', served: false, detail: expect.stringMatching(/^last load failed: .*HTTP 503; retrying in \d+ s$/) }]);
    expect(loadLogs(t)[0]).toMatchObject({ refused: false, msg: 'site load failed; no site is served (readers get 503) until a load succeeds' });
  });

  it('a version served and a refused reload: ready, the old version named as served, the refusal reported', async () => {
    const srv = await source();
    srv.answer(zipBundle(sampleSite('v1'), 'v1'));
    const t = await appliance(`${srv.url}/bundle.zip`);
    await until(() => site(t).current()?.version === 'v1');
    srv.answer(403);
    await site(t).reload({ ...t.config, staticExport: { ...t.config.staticExport, bundleUrl: `${srv.url}/bundle.zip?v=2` } });
    const res = await t.api().get('/readyz').expect(200);
    expect(res.body.status).toBe('ready');
    expect(res.body.checks.site.sites).toEqual([{ site: 'bundle', served: true, refused: true, detail: expect.stringMatching(/^serving v1; last load refused: .*HTTP 403/) }]);
    expect(loadLogs(t)[0]).toMatchObject({ refused: true, serving: 'v1', msg: expect.stringMatching(/; version v1 stays served$/) });
    expect((await supertest(t.site).get('/').set('Host', 'docs.test.internal')).status).toBe(200);
  });
});

describe('readiness with several configured sites', () => {
  it('one served, one not: 200 "degraded" listing each; none configured: ready for the admin API', async () => {
    const srv = await source();
    srv.answer(403);
    const t = await appliance(`${srv.url}/bundle.zip`, { minMs: 60_000, maxMs: 60_000 });
    await until(() => loadLogs(t).length >= 1);
    expect((await t.api().get('/readyz').expect(503)).body.status).toBe('not ready');
    // A published project's site at its own host name is served beside the failing bundle.
    const publish = (t.features.find((f) => f.name === 'publish') as PublishFeature).service;
    publish.publish('aaaaaaaaaaaaaaaaaaaaaaaa', 'api');
    await publish.idle();
    const res = await t.api().get('/readyz').expect(200);
    expect(res.body.status).toBe('degraded');
    expect(res.body.checks.site).toMatchObject({ ok: false, critical: false, detail: expect.stringMatching(/^serving 1 of 2 sites; not served: bundle \(last load refused: /) });
    expect(res.body.checks.site.sites).toEqual([
      { site: 'bundle', served: false, refused: true, detail: expect.stringMatching(/^last load refused/) },
      { site: 'docs.test.internal', served: true, detail: expect.stringMatching(/^serving /) },
    ]);
    expect((await supertest(t.site).get('/').set('Host', 'docs.test.internal')).status).toBe(200);

    // An appliance told to serve nothing yet (no bundle, nothing published): ready, and says why nothing is served.
    const bare = createTestAppliance({ config: { site: { exampleOnFirstStart: false } } });
    cleanup.push(() => bare.close());
    await bare.start();
    const idle = await bare.api().get('/readyz').expect(200);
    expect(idle.body.status).toBe('ready');
    expect(idle.body.checks.site).toEqual({ ok: true, critical: false, detail: 'no bundle configured (staticExport.enabled is false) and no site published', sites: [] });
  });
});
