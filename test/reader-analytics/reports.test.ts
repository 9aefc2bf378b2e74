import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { OTHER_PROJECT, TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';
import { postEvents } from '../analytics/helpers.js';
import { BROWSER_UA, CLAUDE_UA, fetchPage, FIREFOX_UA, GOOGLEBOT_UA, GPTBOT_UA, readerAppliance, readersOf, view } from './helpers.js';

const opened: TestAppliance[] = [];
afterEach(async () => {
  for (const a of opened.splice(0)) await a.close();
});

const report = (app: TestAppliance, key: string, op: string, query = '') => app.api(key).get(`/v1/analytics/${TEST_PROJECT}/${op}${query}`);

/** The known event set: day 1 (2026-11-10) and day 2 (2026-11-11), humans and agents. */
async function knownEvents(app: TestAppliance, clock: { set(d: string): void }) {
  const alice = { ip: '203.0.113.7' };
  const bob = { ip: '198.51.100.20', ua: FIREFOX_UA };
  clock.set('2026-11-10T09:00:00.000Z');
  await view(app, '/', alice).expect(202);
  await view(app, '/guides/install', alice).expect(202);
  await view(app, '/guides/install/', alice).expect(202); // the same page, a second view
  await view(app, '/guides/install', bob).expect(202);
  await fetchPage(app, '/guides/install', GPTBOT_UA, '192.0.2.50').expect(200);
  await fetchPage(app, '/guides/install.md', GPTBOT_UA, '192.0.2.50').expect(200);
  await fetchPage(app, '/', GOOGLEBOT_UA, '192.0.2.60').expect(200); // a plain crawler: not counted
  readersOf(app).flush();
  clock.set('2026-11-11T15:30:00.000Z');
  await view(app, '/guides/install', alice).expect(202);
  await fetchPage(app, '/guides/install', CLAUDE_UA, '192.0.2.51').expect(200);
  readersOf(app).flush();
  clock.set('2026-11-12T08:00:00.000Z');
}

describe('views and visitors from a known event set', () => {
  it('counts totals, the human/AI split, and visitors once per day but again the next day', async () => {
    const { app, clock } = readerAppliance(opened);
    const key = app.createKey();
    await knownEvents(app, clock);

    const views = (await report(app, key, 'views').expect(200)).body;
    expect(views).toEqual({
      totals: { human: 5, ai: 3, total: 8 },
      views: [
        { path: '/guides/install', human: 4, ai: 3, total: 7 },
        { path: '/', human: 1, ai: 0, total: 1 },
      ],
      hasMore: false,
    });

    // Day 1: alice and bob (human), GPTBot (AI); day 2: alice again, Claude-User. Summed per day.
    const visitors = (await report(app, key, 'visitors').expect(200)).body;
    expect(visitors).toEqual({
      totals: { human: 3, ai: 2, total: 5 },
      visitors: [
        { path: '/guides/install', human: 3, ai: 2, total: 5 },
        { path: '/', human: 1, ai: 0, total: 1 },
      ],
      hasMore: false,
    });

    // dateTo is exclusive: only day 1.
    const day1 = (await report(app, key, 'visitors', '?dateFrom=2026-11-10&dateTo=2026-11-11').expect(200)).body;
    expect(day1.totals).toEqual({ human: 2, ai: 1, total: 3 });
    const day1Views = (await report(app, key, 'views', '?dateFrom=2026-11-10&dateTo=2026-11-11').expect(200)).body;
    expect(day1Views.totals).toEqual({ human: 4, ai: 2, total: 6 });
    // Partial days (date-times) are read from the raw views, to the millisecond.
    const afternoon = (await report(app, key, 'views', '?dateFrom=2026-11-11T15:30:00.000Z&dateTo=2026-11-11T15:30:00.001Z').expect(200)).body;
    expect(afternoon.totals).toEqual({ human: 1, ai: 1, total: 2 });
    const before = (await report(app, key, 'views', '?dateFrom=2026-11-10T00:00:00Z&dateTo=2026-11-11T15:30:00.000Z').expect(200)).body;
    expect(before.totals).toEqual({ human: 4, ai: 2, total: 6 });
    const spanning = (await report(app, key, 'visitors', '?dateFrom=2026-11-10T08:00:00Z&dateTo=2026-11-11T16:00:00Z').expect(200)).body;
    expect(spanning.totals).toEqual({ human: 3, ai: 2, total: 5 });
  });

  it('splits a partial day into whole hours and raw partial hours; a daily unique counts in the hour of its first view', async () => {
    const { app, clock } = readerAppliance(opened);
    const key = app.createKey();
    const alice = { ip: '203.0.113.7' };
    const bob = { ip: '198.51.100.20', ua: FIREFOX_UA };
    for (const [at, who, p] of [
      ['2026-11-10T09:10:00Z', alice, '/a'],
      ['2026-11-10T10:30:00Z', alice, '/a'],
      ['2026-11-10T10:40:00Z', bob, '/a'],
      ['2026-11-10T11:45:00Z', bob, '/b'],
      ['2026-11-10T12:59:59.999Z', alice, '/b'],
      ['2026-11-10T13:05:00Z', bob, '/a'],
    ] as const) {
      clock.set(at);
      await view(app, p, who).expect(202);
      readersOf(app).flush();
    }
    clock.set('2026-11-11T00:00:00Z');
    const get = async (op: string, from: string, to: string) => (await report(app, key, op, `?dateFrom=${from}&dateTo=${to}`).expect(200)).body;
    // 09:30–13:00: raw 09:30–10:00 (nothing), whole hours 10, 11, 12.
    const views = await get('views', '2026-11-10T09:30:00Z', '2026-11-10T13:00:00Z');
    expect(views.totals).toEqual({ human: 4, ai: 0, total: 4 });
    expect(views.views).toEqual([
      { path: '/a', human: 2, ai: 0, total: 2 },
      { path: '/b', human: 2, ai: 0, total: 2 },
    ]);
    // Alice's first view of the day was 09:10 (outside): only bob counts, once for the site,
    // on /a at 10:40 and on /b at 11:45; alice's first /b view (12:59) counts for /b.
    const visitors = await get('visitors', '2026-11-10T09:30:00Z', '2026-11-10T13:00:00Z');
    expect(visitors.totals).toEqual({ human: 1, ai: 0, total: 1 });
    expect(visitors.visitors).toEqual([
      { path: '/b', human: 2, ai: 0, total: 2 },
      { path: '/a', human: 1, ai: 0, total: 1 },
    ]);
    // Partial hours at both ends, read raw: 10:35–12:59:59.999 exclusive.
    const inner = await get('views', '2026-11-10T10:35:00Z', '2026-11-10T12:59:59.999Z');
    expect(inner.totals.total).toBe(2);
    // The whole day equals the sum of its parts.
    const whole = await get('visitors', '2026-11-10', '2026-11-11');
    expect(whole.totals).toEqual({ human: 2, ai: 0, total: 2 });
    const parts = await Promise.all([
      get('visitors', '2026-11-10T00:00:00Z', '2026-11-10T10:35:00Z'),
      get('visitors', '2026-11-10T10:35:00Z', '2026-11-11T00:00:00Z'),
    ]);
    expect(parts[0].totals.total + parts[1].totals.total).toBe(2);
  });

  it('keeps counting a visitor once per day across a restart (the day is rebuilt from its raw views)', async () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reader-restart-'));
    try {
      const alice = { ip: '203.0.113.7' };
      const first = readerAppliance(opened, {}, '2026-11-10T09:00:00.000Z', stateDir);
      await view(first.app, '/a', alice).expect(202);
      readersOf(first.app).flush(); // what stop() does when the server shuts down
      await first.app.close();
      opened.splice(opened.indexOf(first.app), 1);
      const second = readerAppliance(opened, {}, '2026-11-10T15:00:00.000Z', stateDir);
      const key = second.app.createKey();
      await view(second.app, '/a', alice).expect(202);
      await view(second.app, '/b', alice).expect(202);
      const body = (await report(second.app, key, 'visitors').expect(200)).body;
      expect(body.totals).toEqual({ human: 1, ai: 0, total: 1 });
      expect(body.visitors).toEqual([
        { path: '/a', human: 1, ai: 0, total: 1 },
        { path: '/b', human: 1, ai: 0, total: 1 },
      ]);
      expect((await report(second.app, key, 'views').expect(200)).body.totals.total).toBe(3);
    } finally {
      fs.rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it('pages with limit and offset, ordered by total then path', async () => {
    const { app } = readerAppliance(opened);
    const key = app.createKey();
    const reader = { ip: '203.0.113.9' };
    for (const [p, n] of [['/a', 3], ['/b', 1], ['/c', 2], ['/d', 2], ['/e', 1]] as const) for (let i = 0; i < n; i++) await view(app, p, reader).expect(202);
    const pages: string[][] = [];
    let offset = 0;
    for (;;) {
      const body = (await report(app, key, 'views', `?limit=2&offset=${offset}`).expect(200)).body;
      pages.push(body.views.map((r: { path: string }) => r.path));
      expect(body.totals.total).toBe(9);
      if (!body.hasMore) break;
      offset += 2;
    }
    expect(pages).toEqual([['/a', '/c'], ['/d', '/b'], ['/e']]);
    expect((await report(app, key, 'views', '?offset=50').expect(200)).body).toEqual({ totals: { human: 9, ai: 0, total: 9 }, views: [], hasMore: false });
  });

  it('pages deep (past the heap, by a typed sort) in the same order as near the top', async () => {
    const { app, clock } = readerAppliance(opened);
    const key = app.createKey();
    const events = [];
    // 5,100 paths; path i gets (i % 7) + 1 views: many ties, broken by path.
    for (let i = 0; i < 5100; i++) for (let v = 0; v <= i % 7; v++) events.push({ kind: 'view' as const, path: `/p/${i}`, viewId: `d${i}-${v}` });
    readersOf(app).ingest.accept(TEST_PROJECT, events, { ip: '203.0.113.4', userAgent: BROWSER_UA }, clock.now().getTime());
    const expected = Array.from({ length: 5100 }, (_, i) => ({ path: `/p/${i}`, total: (i % 7) + 1 }))
      .sort((x, y) => y.total - x.total || (x.path < y.path ? -1 : 1))
      .map((r) => [r.path, r.total]);
    const deep = (await report(app, key, 'views', '?limit=250&offset=4990').expect(200)).body;
    expect(deep.views.map((r: { path: string; total: number }) => [r.path, r.total])).toEqual(expected.slice(4990, 5100));
    expect(deep.hasMore).toBe(false);
    const top = (await report(app, key, 'views', '?limit=250&offset=250').expect(200)).body;
    expect(top.views.map((r: { path: string; total: number }) => [r.path, r.total])).toEqual(expected.slice(250, 500));
    expect(top.hasMore).toBe(true);
  });

  it('breaks ties in UTF-8 byte order, as SQLite sorts (not UTF-16 code units)', async () => {
    const { app } = readerAppliance(opened);
    const key = app.createKey();
    // U+FF5A sorts before U+1F600 in UTF-8 (and code points), after it in UTF-16 code units.
    for (const p of ['/\u{1F600}', '/\uFF5A', '/a']) await view(app, p, { ip: '203.0.113.9' }).expect(202);
    const body = (await report(app, key, 'views').expect(200)).body;
    expect(body.views.map((r: { path: string }) => r.path)).toEqual(['/a', '/\uFF5A', '/\u{1F600}']);
  });

  it('validates parameters: limit 1–250, offset ≥ 0, dates, each problem one detail', async () => {
    const { app } = readerAppliance(opened);
    const key = app.createKey();
    for (const op of ['views', 'visitors']) {
      await report(app, key, op, '?limit=250').expect(200);
      const bad = await report(app, key, op, '?limit=251&offset=-1&dateFrom=nope').expect(400);
      expect(bad.body.details.map((d: { message: string }) => d.message)).toEqual([
        expect.stringMatching(/^dateFrom:/),
        expect.stringMatching(/^limit: must be an integer from 1 to 250/),
        expect.stringMatching(/^offset:/),
      ]);
      const same = await report(app, key, op, '?dateFrom=2026-11-10&dateTo=2026-11-10').expect(400);
      expect(same.body.details[0].message).toMatch(/dateTo is exclusive/);
    }
    const other = await app.api(key).get(`/v1/analytics/${OTHER_PROJECT}/views`).expect(404);
    expect(other.body).toEqual({ error: 'Project not found', details: [] });
  });

  it('counts a re-sent view id once and ignores page beacons of bots and agents', async () => {
    const { app } = readerAppliance(opened);
    const key = app.createKey();
    const one = { type: 'pageview', path: '/x', viewId: 'same-view' };
    await postEvents(app, [one, one], { ip: '203.0.113.1' }).set('User-Agent', BROWSER_UA).expect(202);
    await postEvents(app, one, { ip: '203.0.113.1' }).set('User-Agent', BROWSER_UA).expect(202);
    await postEvents(app, { ...one, viewId: 'bot' }, { ip: '203.0.113.1' }).set('User-Agent', GPTBOT_UA).expect(202);
    await postEvents(app, { ...one, viewId: 'headless' }, { ip: '203.0.113.1' }).set('User-Agent', 'Mozilla/5.0 HeadlessChrome/120.0.0.0').expect(202);
    expect((await report(app, key, 'views').expect(200)).body.totals).toEqual({ human: 1, ai: 0, total: 1 });
  });

  it('answers 202 with rejected entries for bad reader events', async () => {
    const { app } = readerAppliance(opened);
    const res = await postEvents(app, [
      { type: 'pageview', path: '/ok', viewId: 'a1' },
      { type: 'pageview', path: 'relative', viewId: 'a2' },
      { type: 'pageview', path: '/x', viewId: 'a3', extra: 1 },
      { type: 'feedback', path: '/x', feedbackId: 'f1', source: 'agent', helpful: false },
      { type: 'feedback', path: '/x', feedbackId: 'f2', source: 'contextual', helpful: true, comment: 'x'.repeat(1001) },
    ]).set('User-Agent', BROWSER_UA).expect(202);
    expect(res.body.accepted).toBe(1);
    expect(res.body.collecting).toBe(true);
    expect(res.body.rejected.map((r: { index: number }) => r.index)).toEqual([1, 2, 3, 4]);
    expect(res.body.rejected[3].message).toMatch(/comment: must be at most 1000 characters/);
    // A bad reader event is not a rejected search event: each has its own metric.
    await postEvents(app, [{ type: 'search', query: 'q', resultCount: 1, sessionId: 's' }, { type: 'search', query: '', sessionId: 's' }, { type: 'pageview', path: 'x', viewId: 'a4' }]).expect(202);
    const metrics = (await supertest(app.admin).get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/docs_appliance_search_events_total\{outcome="accepted"\} 1\n/);
    expect(metrics).toMatch(/docs_appliance_search_events_total\{outcome="rejected"\} 1\n/);
    expect(metrics).toMatch(/docs_appliance_reader_events_total\{outcome="rejected"\} 5\n/);
  });

  it('collects nothing when analytics.readers.enabled is false', async () => {
    const { app } = readerAppliance(opened, { analytics: { rateLimitPerHour: 1000, readers: { enabled: false } } });
    const key = app.createKey();
    const res = await view(app, '/', { ip: '203.0.113.1' }).expect(202);
    expect(res.body.collecting).toBe(false);
    await fetchPage(app, '/', GPTBOT_UA, '192.0.2.1').expect(200);
    await postEvents(app, { type: 'feedback', path: '/', feedbackId: 'f', source: 'thumbs_only', helpful: true }).set('User-Agent', BROWSER_UA).expect(202);
    expect((await report(app, key, 'views').expect(200)).body.totals.total).toBe(0);
    expect((await report(app, key, 'feedback').expect(200)).body.feedback).toEqual([]);
  });
});

describe('retention', () => {
  it('deletes raw views past analytics.rawRetentionDays; the daily rollups keep the report', async () => {
    const { app, clock } = readerAppliance(opened, { analytics: { rateLimitPerHour: 1000, rawRetentionDays: 2 } });
    const key = app.createKey();
    clock.set('2026-11-01T10:00:00Z');
    await view(app, '/old', { ip: '203.0.113.1' }).expect(202);
    clock.set('2026-11-10T10:00:00Z');
    await view(app, '/new', { ip: '203.0.113.1' }).expect(202);
    readersOf(app).flush();
    const raw = () => (app.ctx.db.prepare('SELECT count(*) AS n FROM page_views').get() as { n: number }).n;
    expect(raw()).toBe(2);
    expect(readersOf(app).applyRetention().deleted).toBe(1);
    expect(raw()).toBe(1);
    const body = (await report(app, key, 'views', '?dateFrom=2026-11-01&dateTo=2026-11-02').expect(200)).body;
    expect(body.views).toEqual([{ path: '/old', human: 1, ai: 0, total: 1 }]);
  });
});

describe('privacy', () => {
  it('stores no IP address and sets no cookie', async () => {
    const { app, clock } = readerAppliance(opened);
    const key = app.createKey();
    const res = await view(app, '/', { ip: '203.0.113.77' }).expect(202);
    expect(res.headers['set-cookie']).toBeUndefined();
    const page = await fetchPage(app, '/guides/install', GPTBOT_UA, '203.0.113.78').expect(200);
    expect(page.headers['set-cookie']).toBeUndefined();
    await postEvents(app, { type: 'feedback', path: '/', feedbackId: 'fb1', source: 'contextual', helpful: false, comment: 'unclear' }, { ip: '203.0.113.77' })
      .set('User-Agent', BROWSER_UA)
      .expect(202);
    readersOf(app).flush();
    await report(app, key, 'views').expect(200);
    clock.set('2026-11-11T09:00:00.000Z');
    await view(app, '/', { ip: '203.0.113.77' }).expect(202);
    readersOf(app).flush();
    app.ctx.db.pragma('wal_checkpoint(TRUNCATE)');
    const files = fs.readdirSync(app.stateDir).filter((f) => /\.(db|sqlite|db-wal)$/.test(f) || f.includes('.db'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const bytes = fs.readFileSync(path.join(app.stateDir, f));
      for (const needle of ['203.0.113.77', '203.0.113.78', 'Chrome/131', 'GPTBot']) expect(bytes.includes(Buffer.from(needle)), `${needle} in ${f}`).toBe(false);
    }
    // Only the current day's salt is kept.
    const salts = app.ctx.db.prepare("SELECT value FROM settings WHERE key = 'analytics.visitorSalt'").all() as { value: string }[];
    expect(salts).toHaveLength(1);
    expect(JSON.parse(salts[0]!.value).day).toBe(Math.floor(Date.parse('2026-11-11') / 86_400_000));
  });
});
