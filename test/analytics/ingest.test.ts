import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestAppliance, FREE_PROJECT, OTHER_ORG, OTHER_PROJECT, TEST_ORG, TEST_PROJECT, writeTinyDocs, type TestAppliance } from '../helpers/appliance.js';
import type { ConfigInput } from '../../config/schema.js';
import { serveSampleSite } from '../site/helpers.js';
import { analyticsOf, postEvents, serveProject } from './helpers.js';

let t: TestAppliance | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

function appliance(config: Partial<ConfigInput> = {}) {
  const app = createTestAppliance({ config: { ...config, analytics: { rateLimitPerHour: 10_000, ...config.analytics } } });
  t = app;
  return app;
}

const search = (query: string, sessionId = 'sess-1', extra: Record<string, unknown> = {}) => ({ type: 'search', query, resultCount: 4, sessionId, ...extra });
const click = (query: string, path = '/guides/intro', sessionId = 'sess-1', extra: Record<string, unknown> = {}) => ({ type: 'click', query, path, sessionId, ...extra });

async function report(app: TestAppliance, query = '') {
  const key = app.createKey();
  const res = await app.api(key).get(`/v1/analytics/${TEST_PROJECT}/searches${query}`).expect(200);
  return res.body as { searches: { searchQuery: string; hits: number; ctr: number; topClickedPage: string | null; lastSearchedAt: string }[]; totalSearches: number };
}

describe('POST /_/events', () => {
  it('accepts the good events of a batch and reports each bad one by index', async () => {
    const app = appliance();
    const res = await postEvents(app, [
      search('install'),
      { type: 'search', query: 'x', resultCount: -1, sessionId: 's' },
      click('install', 'https://evil.example/x'),
      { type: 'search', query: '   ', resultCount: 1, sessionId: 's' },
      { type: 'search', query: 'q'.repeat(201), resultCount: 1, sessionId: 's' },
      { type: 'search', query: 'ok', resultCount: 1, sessionId: 'bad session' },
      { type: 'search', query: 'ok', resultCount: 1, sessionId: 's', timestamp: new Date(app.clock.now().getTime() + 10 * 60_000).toISOString() },
      { type: 'search', query: 'ok', resultCount: 1, sessionId: 's', timestamp: 'yesterday' },
      { type: 'search', query: 'ok', resultCount: 1, sessionId: 's', projectId: TEST_PROJECT },
      { type: 'search', query: 'ok', resultCount: 1.5, sessionId: 's' },
      { type: 'view', query: 'ok', sessionId: 's' },
      { type: 'search', query: 'ok', resultCount: 1, sessionId: 's', extra: true },
      'a string',
      click('install', '/guides/install'),
    ]);
    expect(res.status).toBe(202);
    expect(res.body.accepted).toBe(2);
    const byIndex = Object.fromEntries(res.body.rejected.map((r: { index: number; message: string }) => [r.index, r.message]));
    expect(Object.keys(byIndex).map(Number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(byIndex[1]).toMatch(/^resultCount:/);
    expect(byIndex[2]).toMatch(/^path:/);
    expect(byIndex[3]).toMatch(/^query: must not be empty/);
    expect(byIndex[4]).toMatch(/^query: must be at most 200/);
    expect(byIndex[5]).toMatch(/^sessionId:/);
    expect(byIndex[6]).toMatch(/^timestamp: is in the future/);
    expect(byIndex[7]).toMatch(/^timestamp: must be an ISO 8601/);
    expect(byIndex[8]).toMatch(/^projectId: not accepted/);
    expect(byIndex[9]).toMatch(/^resultCount:/);
    expect(byIndex[10]).toMatch(/^type:/);
    expect(byIndex[11]).toMatch(/unknown field "extra"/);
    expect(byIndex[12]).toBe('event must be a JSON object');
    const body = await report(app);
    expect(body.searches).toEqual([{ searchQuery: 'install', hits: 1, ctr: 100, topClickedPage: '/guides/install', lastSearchedAt: app.clock.now().toISOString() }]);
  });

  it('counts a click on /x/ (the bundle\'s link form), /x/index.html and /x as one page, /x', async () => {
    const app = appliance();
    const res = await postEvents(app, [
      search('install', 's1'),
      click('install', '/guides/install/', 's1'),
      search('install', 's2'),
      click('install', '/guides/install/index.html', 's2'),
      search('install', 's3'),
      click('install', '/guides/install', 's3'),
      search('home', 's4'),
      click('home', '/', 's4'),
    ]);
    expect(res.body.accepted).toBe(8);
    const rows = (await report(app)).searches;
    expect(rows.find((r) => r.searchQuery === 'install')).toMatchObject({ hits: 3, ctr: 100, topClickedPage: '/guides/install' });
    expect(rows.find((r) => r.searchQuery === 'home')?.topClickedPage).toBe('/');
  });

  it('answers 400 when every event is bad or the body is not JSON, 413 past the size or batch cap, 415 for other types', async () => {
    const app = appliance({ analytics: { ingest: { maxBodyBytes: 1024, maxBatch: 3 } } });
    const none = await postEvents(app, [{ type: 'search' }, { nope: 1 }]);
    expect(none.status).toBe(400);
    expect(none.body.rejected).toHaveLength(2);
    expect((await postEvents(app, '{"type": "search",')).status).toBe(400);
    expect((await postEvents(app, '')).status).toBe(400);
    expect((await postEvents(app, [])).status).toBe(400);
    const big = await postEvents(app, [search('x'.repeat(1100))]);
    expect(big.status).toBe(413);
    expect(big.body.error).toMatch(/1024 bytes/);
    const many = await postEvents(app, [search('a'), search('b'), search('c'), search('d')]);
    expect(many.status).toBe(413);
    expect(many.body.error).toMatch(/At most 3 events/);
    expect((await postEvents(app, search('a'), { contentType: 'application/x-www-form-urlencoded' })).status).toBe(415);
    analyticsOf(app).flush();
    expect((await report(app)).totalSearches).toBe(0);
  });

  it('takes the text/plain bodies navigator.sendBeacon may send, and a single object', async () => {
    const app = appliance();
    expect((await postEvents(app, search('helm chart'), { contentType: 'text/plain;charset=UTF-8' })).status).toBe(202);
    expect((await postEvents(app, [search('tls')], { contentType: 'application/json' })).body).toEqual({ accepted: 1, rejected: [] });
    expect((await report(app)).totalSearches).toBe(2);
  });

  it('counts search-as-you-type once: the same session and normalised term within 30 s', async () => {
    const app = appliance();
    const t0 = app.clock.now().getTime();
    const at = (ms: number) => ({ timestamp: new Date(t0 - 120_000 + ms).toISOString() });
    await postEvents(app, [
      search('Install', 'a', at(0)),
      search('install ', 'a', at(10_000)), // same term, 10 s later: the same search
      search('  INSTALL', 'a', at(29_999)),
      search('install', 'a', at(40_000)), // 30 s after the counted one: a new search
      search('install', 'b', at(1_000)), // another session
      search('install rhel', 'a', at(2_000)), // another term
    ]).expect(202);
    const body = await report(app);
    expect(body.searches.map((s) => [s.searchQuery, s.hits])).toEqual([
      ['install', 3],
      ['install rhel', 1],
    ]);
    expect(body.totalSearches).toBe(4);
  });

  it('counts a search as clicked once, for a click in the same session within 30 minutes, even when the click beacon arrives first', async () => {
    const app = appliance();
    const t0 = app.clock.now().getTime() - 3600_000;
    const at = (ms: number) => ({ timestamp: new Date(t0 + ms).toISOString() });
    await postEvents(app, [
      search('proxy', 'a', at(0)),
      click('proxy', '/guides/proxy', 'a', at(5_000)),
      click('proxy', '/guides/other', 'a', at(6_000)), // a second click: still one clicked search
      search('proxy', 'b', at(0)),
      click('proxy', '/guides/proxy', 'b', at(31 * 60_000)), // too late
      click('proxy', '/guides/proxy', 'c', at(1_000 - 500)), // races its search by 0.5 s
      search('proxy', 'c', at(1_000)),
      search('proxy', 'd', at(0)),
      click('proxy', '/faq', 'e', at(100)), // another session
    ]).expect(202);
    const [row] = (await report(app)).searches;
    expect(row).toMatchObject({ searchQuery: 'proxy', hits: 4, ctr: 50, topClickedPage: '/guides/proxy' });
  });

  it('records a beacon only for the project of the served site; another project\'s Host is refused', async () => {
    const app = appliance();
    const post = (query: string, host: string) => supertest(app.site).post('/_/events').set('Host', host).set('Content-Type', 'text/plain').send(JSON.stringify(search(query)));
    // Nothing served yet: no reader can have searched here.
    await post('nothing served', 'docs.test.internal').expect(404);
    serveProject(app, TEST_PROJECT);
    await post('by host', 'docs.test.internal').expect(202);
    await post('by address', '127.0.0.1:8080').expect(202);
    for (const host of ['docs.other.internal', 'docs.free.internal:8080', 'DOCS.OTHER.INTERNAL']) {
      const refused = await post(`forged for ${host}`, host).expect(404);
      expect(refused.body.error).toMatch(/No project is served at this address/);
    }
    // The served site changes: its project's Host is now the one that counts.
    serveProject(app, OTHER_PROJECT);
    await post('other site', 'docs.other.internal').expect(202);
    await post('old site', 'docs.test.internal').expect(404);
    analyticsOf(app).flush();
    const queries = async (org: string, project: string) =>
      (await app.api(app.createKey(org)).get(`/v1/analytics/${project}/searches`).expect(200)).body.searches.map((s: { searchQuery: string }) => s.searchQuery).sort();
    expect(await queries(TEST_ORG, TEST_PROJECT)).toEqual(['by address', 'by host']);
    expect(await queries(OTHER_ORG, OTHER_PROJECT)).toEqual(['other site']);
    expect(await queries('org_free', FREE_PROJECT)).toEqual([]);
  });

  it('with a real bundle of org A loaded, refuses a beacon sent with org B\'s domain and records one sent to A\'s', async () => {
    const served = await serveSampleSite(); // its manifest: TEST_PROJECT (org_test) on docs.test.internal
    try {
      const post = (query: string, host: string) => supertest(served.t.site).post('/_/events').set('Host', host).set('Content-Type', 'application/json').send(JSON.stringify(search(query)));
      await post('for B', 'docs.other.internal').expect(404);
      await post('for A', 'docs.test.internal').expect(202);
      analyticsOf(served.t).flush();
      const queries = async (org: string, project: string) =>
        (await served.t.api(served.t.createKey(org)).get(`/v1/analytics/${project}/searches`).expect(200)).body.searches.map((s: { searchQuery: string }) => s.searchQuery);
      expect(await queries(OTHER_ORG, OTHER_PROJECT)).toEqual([]);
      expect(await queries(TEST_ORG, TEST_PROJECT)).toEqual(['for a']);
    } finally {
      await served.close();
    }
  });

  it('attributes a site without a project (no manifest) to the only project, and refuses it among several', async () => {
    const several = appliance();
    serveProject(several, null);
    await postEvents(several, search('whose?')).expect(404);
    const docs = writeTinyDocs(fs.mkdtempSync(path.join(os.tmpdir(), 'one-project-')));
    const one = createTestAppliance({ config: { projects: [{ id: TEST_PROJECT, orgId: TEST_ORG, name: 'Only', domain: 'docs.test.internal', sourceDir: docs }] } });
    try {
      serveProject(one, null);
      await postEvents(one, search('only one'), { host: 'anything.example' }).expect(202);
      await postEvents(one, search('only one again')).expect(202);
    } finally {
      await one.close();
      fs.rmSync(docs, { recursive: true, force: true });
    }
  });

  it('limits requests per client address per minute, with RateLimit headers and Retry-After', async () => {
    const app = appliance({ admin: { trustProxy: true }, analytics: { ingest: { perClientPerMinute: 3 } } });
    for (let i = 0; i < 3; i++) {
      const ok = await postEvents(app, search(`t${i}`), { ip: '10.0.0.1' }).expect(202);
      expect(ok.headers['ratelimit-remaining']).toBe(String(2 - i));
    }
    const limited = await postEvents(app, search('t3'), { ip: '10.0.0.1' }).expect(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await postEvents(app, search('t3'), { ip: '10.0.0.2' }).expect(202);
    app.clock.advance(60_000);
    await postEvents(app, search('t4'), { ip: '10.0.0.1' }).expect(202);
  });

  it('answers 202 only once the events are stored, concurrent requests included', async () => {
    const app = appliance();
    const count = () => (app.ctx.db.prepare('SELECT count(*) AS n FROM search_events').get() as { n: number }).n;
    await postEvents(app, [search('one'), search('two')]).expect(202);
    expect(count()).toBe(2); // written before the answer, not after it
    await Promise.all([postEvents(app, [search('three')]).expect(202), postEvents(app, [search('four')]).expect(202)]);
    expect(count()).toBe(4);
    await analyticsOf(app).stop?.();
    const metrics = await supertest(app.admin).get('/metrics').expect(200);
    expect(metrics.text).toMatch(/docs_appliance_search_events_total\{outcome="accepted"\} 4/);
    expect(metrics.text).toMatch(/docs_appliance_search_events_total\{outcome="stored"\} 4/);
  });
});
