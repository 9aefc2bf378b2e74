import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestAppliance, OTHER_ORG, OTHER_PROJECT, TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';
import type { ConfigInput } from '../../config/schema.js';
import { manualClock } from '../../app/clock.js';
import { postEvents, serveProject } from './helpers.js';

const opened: TestAppliance[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const a of opened.splice(0)) await a.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function appliance(config: Partial<ConfigInput> = {}, stateDir?: string, clock = manualClock('2026-11-01T12:00:00.000Z')) {
  const app = createTestAppliance({ config, clock, ...(stateDir ? { stateDir } : {}) });
  opened.push(app);
  return app;
}

const url = (query = '', project = TEST_PROJECT) => `/v1/analytics/${project}/searches${query}`;

async function seed(app: TestAppliance, terms: string[]) {
  const events = terms.map((q, i) => ({ type: 'search', query: q, resultCount: 1, sessionId: `seed-${i}` }));
  for (let i = 0; i < events.length; i += 50) await postEvents(app, events.slice(i, i + 50)).expect(202);
}

describe('GET /v1/analytics/{projectId}/searches: parameters', () => {
  it('answers 400 {error, details} with one detail per problem', async () => {
    const app = appliance({ analytics: { rateLimitPerHour: 1000 } });
    const key = app.createKey();
    const cases: [string, RegExp[]][] = [
      ['?dateFrom=yesterday', [/^dateFrom: "yesterday" is not/]],
      ['?dateFrom=2026-02-30', [/^dateFrom:/]],
      ['?dateTo=2026-11-01T25:00:00Z', [/^dateTo:/]],
      ['?dateFrom=2026-11-02&dateTo=2026-11-01', [/^dateFrom must be before dateTo/]],
      ['?dateFrom=2026-11-01&dateTo=2026-11-01', [/^dateFrom must be before dateTo/]],
      ['?dateFrom=2026-11-01T02:00:00%2B02:00&dateTo=2026-11-01', [/^dateFrom must be before dateTo/]],
      ['?limit=0', [/^limit: must be an integer from 1 to 100 \(got "0"\)/]],
      ['?limit=101', [/^limit:/]],
      ['?limit=1.5', [/^limit:/]],
      ['?limit=abc', [/^limit:/]],
      ['?limit=', [/^limit:/]],
      ['?limit=-1', [/^limit:/]],
      ['?dateFrom=2026-11-01&dateFrom=2026-11-02', [/^dateFrom: must be given once/]],
      ['?dateFrom=nope&dateTo=never&limit=0', [/^dateFrom:/, /^dateTo:/, /^limit:/]],
      ['?cursor=', [/^cursor:/]],
    ];
    for (const [query, expected] of cases) {
      const res = await app.api(key).get(url(query)).expect(400);
      expect(res.body.error, query).toEqual(expect.any(String));
      expect(res.body.details.map((d: { message: string }) => d.message), query).toEqual(expected.map((re) => expect.stringMatching(re)));
      expect(res.headers['ratelimit-limit']).toBe('1000');
    }
  });

  it('accepts both date forms, limits 1 and 100, and ignores unknown parameters', async () => {
    const app = appliance({ analytics: { rateLimitPerHour: 1000 } });
    const key = app.createKey();
    for (const q of ['?dateFrom=2026-10-01', '?dateTo=2026-11-01T10:00:00.123%2B05:30', '?limit=1', '?limit=100', '?utm_source=script&foo[bar]=1', '?dateFrom=2026-10-01T00:00:00']) {
      const res = await app.api(key).get(url(q)).expect(200);
      expect(res.body).toEqual({ searches: [], totalSearches: 0, nextCursor: null });
    }
  });

  it('answers 404 for another organization’s project and an unknown one (and counts them)', async () => {
    const app = appliance();
    const key = app.createKey();
    const other = await app.api(key).get(url('', OTHER_PROJECT)).expect(404);
    expect(other.body).toEqual({ error: 'Project not found', details: [] });
    await app.api(key).get(url('', 'ffffffffffffffffffffffff')).expect(404);
    const ok = await app.api(key).get(url()).expect(200);
    expect(ok.headers['ratelimit-remaining']).toBe('97');
  });
});

describe('cursors', () => {
  async function firstPage(app: TestAppliance, key: string, query = '?limit=2') {
    const res = await app.api(key).get(url(query)).expect(200);
    expect(res.body.nextCursor).toEqual(expect.any(String));
    return res.body.nextCursor as string;
  }

  it('pages with a cursor alone or with the same parameters; refuses other parameters', async () => {
    const app = appliance();
    const key = app.createKey();
    await seed(app, ['a', 'b', 'c', 'd', 'e']);
    const cursor = await firstPage(app, key, '?limit=2&dateFrom=2026-11-01');
    const alone = await app.api(key).get(url(`?cursor=${encodeURIComponent(cursor)}`)).expect(200);
    const same = await app.api(key).get(url(`?limit=2&dateFrom=2026-11-01&cursor=${encodeURIComponent(cursor)}`)).expect(200);
    expect(alone.body).toEqual(same.body);
    expect(alone.body.searches.map((s: { searchQuery: string }) => s.searchQuery)).toEqual(['c', 'd']);
    for (const q of ['?limit=3', '?dateFrom=2026-10-31', '?dateTo=2026-12-01']) {
      const res = await app.api(key).get(url(`${q}&cursor=${encodeURIComponent(cursor)}`)).expect(400);
      expect(res.body.details[0].message).toMatch(/^cursor: was issued for another/);
    }
  });

  it('refuses a garbled, tampered, forged, foreign or expired cursor with 400', async () => {
    const app = appliance({ analytics: { rateLimitPerHour: 1000 } });
    const key = app.createKey();
    await seed(app, ['a', 'b', 'c', 'd', 'e']);
    const cursor = await firstPage(app, key);
    const [body, kid, sig] = cursor.split('.') as [string, string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    const reencode = (p: unknown) => Buffer.from(JSON.stringify(p)).toString('base64url');
    const otherKey = app.createKey(OTHER_ORG);
    const bad: [string, RegExp][] = [
      ['garbage', /malformed/],
      ['a.b', /malformed/],
      [`${body}.${kid}.${sig}x`, /signature/],
      [`${body.slice(0, -2)}${body.endsWith('A') ? 'B' : 'A'}A.${kid}.${sig}`, /signature|malformed/],
      [`${reencode({ ...payload, m: payload.m + 1000 })}.${kid}.${sig}`, /signature/],
      [`${reencode({ ...payload, h: 0 })}.${kid}.${Buffer.alloc(32).toString('base64url')}`, /signature/],
      [`${body}.deadbeef.${sig}`, /not issued by this appliance/],
    ];
    for (const [c, re] of bad) {
      const res = await app.api(key).get(url(`?cursor=${encodeURIComponent(c)}`)).expect(400);
      expect(res.body.details.map((d: { message: string }) => d.message).join(' '), c).toMatch(re);
    }
    // Another project's cursor, correctly signed by this appliance.
    serveProject(app, OTHER_PROJECT);
    await postEvents(app, [{ type: 'search', query: 'x', resultCount: 1, sessionId: 'o1' }, { type: 'search', query: 'y', resultCount: 1, sessionId: 'o2' }, { type: 'search', query: 'z', resultCount: 1, sessionId: 'o3' }], { host: 'docs.other.internal' }).expect(202);
    const foreign = (await app.api(otherKey).get(url('?limit=1', OTHER_PROJECT)).expect(200)).body.nextCursor as string;
    const res = await app.api(key).get(url(`?cursor=${encodeURIComponent(foreign)}`)).expect(400);
    expect(res.body.details[0].message).toMatch(/another project/);
    // A cursor of another appliance (other secrets) with the same key id.
    const twin = appliance();
    const twinKey = twin.createKey();
    await seed(twin, ['a', 'b', 'c']);
    const twinCursor = await firstPage(twin, twinKey);
    const [tb, , ts] = twinCursor.split('.');
    await app.api(key).get(url(`?cursor=${encodeURIComponent(`${tb}.${kid}.${ts}`)}`)).expect(400);
    // Expired: a cursor chain lives 24 hours.
    app.clock.advance(24 * 3600_000 + 1);
    const expired = await app.api(key).get(url(`?cursor=${encodeURIComponent(cursor)}`)).expect(400);
    expect(expired.body.details[0].message).toMatch(/expired/);
  });
});

describe('rate limit', () => {
  it('allows 100 requests per organization per hour across routes, then 429 with Retry-After until the window frees', async () => {
    const app = appliance();
    const key = app.createKey();
    const otherKeySameOrg = app.createKey();
    for (let i = 0; i < 100; i++) {
      // Shared by every key of the org and every /v1/analytics route, failing requests included.
      const target = i % 10 === 0 ? '/v1/analytics/' + TEST_PROJECT + '/nothing-here' : i % 3 === 0 ? url('?limit=0') : url();
      const res = await app.api(i % 2 ? key : otherKeySameOrg).get(target);
      expect([200, 400, 404]).toContain(res.status);
      expect(res.headers['ratelimit-remaining']).toBe(String(99 - i));
      expect(res.headers['ratelimit-limit']).toBe('100');
      app.clock.advance(1000);
    }
    const limited = await app.api(key).get(url()).expect(429);
    expect(limited.body).toEqual({ error: expect.stringMatching(/Rate limit exceeded/), details: [] });
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    // The first request leaves the window one hour after it was made (100 s ago).
    expect(Number(limited.headers['retry-after'])).toBe(3600 - 100);
    expect(limited.headers['ratelimit-reset']).toBe(limited.headers['retry-after']);
    // Another organization has its own budget.
    await app.api(app.createKey(OTHER_ORG)).get(url('', OTHER_PROJECT)).expect(200);
    app.clock.advance((3600 - 100) * 1000);
    const again = await app.api(key).get(url()).expect(200);
    expect(again.headers['ratelimit-remaining']).toBe('0');
  });

  it('survives a restart (persisted in SQLite) and follows the configured limit', async () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-restart-'));
    dirs.push(stateDir);
    const clock = manualClock('2026-11-01T12:00:00.000Z');
    const first = appliance({ analytics: { rateLimitPerHour: 5 } }, stateDir, clock);
    const key = first.createKey();
    for (let i = 0; i < 5; i++) await first.api(key).get(url()).expect(200);
    await first.api(key).get(url()).expect(429);
    await first.close();
    opened.splice(opened.indexOf(first), 1);
    const second = appliance({ analytics: { rateLimitPerHour: 5 } }, stateDir, clock);
    const res = await second.api(key).get(url()).expect(429);
    expect(res.headers['ratelimit-limit']).toBe('5');
    // A larger configured limit applies to the same persisted window.
    const third = appliance({ analytics: { rateLimitPerHour: 7 } }, stateDir, clock);
    const ok = await third.api(key).get(url()).expect(200);
    expect(ok.headers['ratelimit-remaining']).toBe('1');
  });
});
