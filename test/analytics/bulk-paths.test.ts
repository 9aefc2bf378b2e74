import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestAppliance, OTHER_PROJECT, TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';
import { importNdjson } from '../../app/analytics/import.js';
import { decodeEvents, encodeEvents, newDictionary, type ReceivedStrings } from '../../app/analytics/import-batch.js';
import { createReportService } from '../../app/analytics/report.js';
import { createSessionTracker } from '../../app/analytics/sessions.js';
import { normaliseQuery } from '../../app/analytics/normalise.js';
import type { StoredSearchEvent } from '../../data/stores/search-events.js';
import { createSearchEventStore } from '../../data/stores/search-events.js';
import { createSearchReportStore } from '../../data/stores/search-report.js';
import { manualClock } from '../../app/clock.js';
import { analyticsOf } from './helpers.js';
import { bruteForce, randomEvents, toNdjson, type RefEvent } from './reference.js';

const START = Date.parse('2026-10-01T00:00:00.000Z');
const apps: TestAppliance[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
});

function appliance() {
  const app = createTestAppliance({ clock: manualClock('2026-10-20T00:00:00.000Z'), config: { analytics: { rateLimitPerHour: 100_000 } } });
  apps.push(app);
  return app;
}

/** Every page of the all-time report through the service, as the API would page it. */
function allPages(report: ReturnType<typeof createReportService>, range = { fromMs: null as number | null, toMs: null as number | null }) {
  const first = report.page(TEST_PROJECT, range, 9);
  const searches = [...first.searches];
  let next = first.next;
  while (next) {
    const p = report.page(TEST_PROJECT, range, 9, { maxId: first.maxId, after: next });
    searches.push(...p.searches);
    next = p.next;
  }
  return { searches, totalSearches: first.totalSearches };
}

/** Beacon-like writes: session rules then one batch, as the server's write buffer does. */
function write(app: TestAppliance, events: readonly RefEvent[]) {
  const store = createSearchEventStore(app.ctx.db);
  const rows = createSessionTracker().process(
    events.map((e) => ({ projectId: e.projectId, kind: e.type === 'search' ? 0 : 1, norm: normaliseQuery(e.query), atMs: e.atMs, resultCount: e.resultCount ?? null, path: e.path ?? null, sessionId: e.sessionId })),
  );
  store.writeBatch(rows);
}

describe('import on a parsing thread', () => {
  it('stores exactly what the in-thread import stores, and reports rejected lines by number', async () => {
    const events = randomEvents(21, { projectId: TEST_PROJECT, otherProjectId: OTHER_PROJECT, startMs: START, days: 4, visits: 400 });
    const lines = toNdjson(events).split('\n');
    // Bad lines among the good ones: not JSON, an unknown project, a bad field.
    lines.splice(3, 0, '{not json');
    lines.splice(10, 0, JSON.stringify({ type: 'search', projectId: 'ffffffffffffffffffffffff', query: 'x', resultCount: 1, sessionId: 's', timestamp: '2026-10-02T00:00:00Z' }));
    lines.splice(20, 0, JSON.stringify({ type: 'click', projectId: TEST_PROJECT, query: 'x', path: 'no-slash', sessionId: 's', timestamp: '2026-10-02T00:00:00Z' }));
    const results = [];
    for (const threadFromBytes of [0, Number.POSITIVE_INFINITY]) {
      const app = appliance();
      const file = path.join(app.stateDir, 'events.ndjson');
      fs.writeFileSync(file, lines.join('\n'));
      const rejected: string[] = [];
      // Small batches: many messages, and the term and path dictionaries grow across them.
      const r = await importNdjson(file, {
        store: createSearchEventStore(app.ctx.db),
        knownProjects: [TEST_PROJECT, OTHER_PROJECT],
        onRejected: (line, message) => rejected.push(`${line}: ${message.split(':')[0]}`),
        batchSize: 37,
        threadFromBytes,
        now: () => app.clock.now().getTime(),
      });
      expect(rejected).toEqual(['4: not JSON', '11: projectId', '21: path']);
      expect(r.rejected).toBe(3);
      const rows = app.ctx.db.prepare('SELECT e.id, e.kind, t.norm, e.at_ms, e.result_count, e.path, e.counts_ctr, e.search_at_ms FROM search_events e JOIN search_terms t ON t.id = e.term_id ORDER BY e.id').all();
      const report = createReportService(createSearchReportStore(app.ctx.db));
      results.push({ lines: r.lines, accepted: r.accepted, stored: r.stored, rows, report: allPages(report) });
    }
    expect(results[0]).toEqual(results[1]);
    expect(results[0]!.report).toEqual(bruteForce(events, TEST_PROJECT, null, null));
  });

  it('carries terms and paths across batches, and across a new dictionary', () => {
    const ev = (norm: string, path: string | null): StoredSearchEvent => ({ projectId: TEST_PROJECT, kind: path ? 1 : 0, norm, atMs: START, resultCount: path ? null : 2, path, countsCtr: 0, searchAtMs: null });
    const batches = [
      [ev('a', null), ev('b', '/x'), ev('a', '/y')],
      [ev('b', null), ev('c', '/x')],
      [ev('c', null), ev('a', '/z')],
    ];
    let norms = newDictionary();
    let paths = newDictionary();
    const received: ReceivedStrings = { norms: [], paths: [] };
    for (const [i, batch] of batches.entries()) {
      if (i === 2) {
        // What the parsing thread does past DICTIONARY_MAX entries.
        norms = newDictionary();
        paths = newDictionary();
      }
      const encoded = encodeEvents(batch, norms, paths);
      expect(decodeEvents(structuredClone(encoded), received)).toEqual(batch);
    }
    expect(received.norms).toEqual(['c', 'a']);
  });
});

describe('all-time ranking kept in memory', () => {
  it('advances by the events stored since, reloads after many, and matches a brute-force count either way', async () => {
    const app = appliance();
    const events = randomEvents(31, { projectId: TEST_PROJECT, startMs: START, days: 3, visits: 200 });
    write(app, events);
    const incremental = createReportService(createSearchReportStore(app.ctx.db));
    const reloading = createReportService(createSearchReportStore(app.ctx.db), { allTimeCatchUpMax: 0 });
    for (const r of [incremental, reloading]) expect(allPages(r)).toEqual(bruteForce(events, TEST_PROJECT, null, null));
    for (let round = 0; round < 3; round++) {
      const more = randomEvents(40 + round, { projectId: TEST_PROJECT, startMs: START + 3 * 86_400_000, days: 2, visits: 30, sessionPrefix: `more${round}-` });
      write(app, more);
      events.push(...more);
      const expected = bruteForce(events, TEST_PROJECT, null, null);
      for (const r of [incremental, reloading]) {
        r.clearCache(); // the cached ranking of the previous pin, not the in-memory totals
        expect(allPages(r)).toEqual(expected);
      }
    }
  });

  it('keeps the totals of the projects reported on last, and reloads another one exactly', () => {
    const app = appliance();
    const projects = Array.from({ length: 6 }, (_, i) => `${i}`.repeat(24));
    const all: RefEvent[] = [];
    for (const [i, projectId] of projects.entries()) {
      const evs = randomEvents(60 + i, { projectId, startMs: START, days: 2, visits: 40 });
      write(app, evs);
      all.push(...evs);
    }
    const report = createReportService(createSearchReportStore(app.ctx.db));
    const top = (projectId: string) => report.page(projectId, { fromMs: null, toMs: null }, 100);
    const expected = (projectId: string) => bruteForce(all, projectId, null, null);
    for (const p of projects) expect(top(p)).toMatchObject(expected(p));
    // The first project's totals were dropped for the later ones; new events arrive for it.
    const more = randomEvents(70, { projectId: projects[0]!, startMs: START + 2 * 86_400_000, days: 1, visits: 20, sessionPrefix: 'late-' });
    write(app, more);
    all.push(...more);
    report.clearCache();
    for (const p of [projects[0]!, projects[5]!]) expect(top(p)).toMatchObject(expected(p));
  });

  it('notices when the newest event id is reused after retention deleted it', () => {
    const app = appliance();
    const old: RefEvent = { type: 'search', projectId: TEST_PROJECT, query: 'old', sessionId: 's1', atMs: START, resultCount: 1 };
    write(app, [old]);
    const report = createReportService(createSearchReportStore(app.ctx.db));
    expect(report.page(TEST_PROJECT, { fromMs: null, toMs: null }, 10).totalSearches).toBe(1);
    // Retention deletes the newest raw row (its rollups stay); SQLite gives the next row the same id.
    const maxId = (app.ctx.db.prepare('SELECT max(id) AS m FROM search_events').get() as { m: number }).m;
    app.ctx.db.prepare('DELETE FROM search_events WHERE id = ?').run(maxId);
    const fresh: RefEvent = { type: 'search', projectId: TEST_PROJECT, query: 'fresh', sessionId: 's2', atMs: START + 1000, resultCount: 1 };
    write(app, [fresh]);
    expect((app.ctx.db.prepare('SELECT max(id) AS m FROM search_events').get() as { m: number }).m).toBe(maxId);
    report.clearCache();
    const page = report.page(TEST_PROJECT, { fromMs: null, toMs: null }, 10);
    expect(page.searches.map((s) => [s.searchQuery, s.hits])).toEqual([
      ['fresh', 1],
      ['old', 1],
    ]);
    expect(page.totalSearches).toBe(2);
  });
});

describe('warming the report caches after a start', () => {
  it('loads in the background and leaves every report exact; stopping meanwhile is safe', async () => {
    const app = appliance();
    const key = app.createKey();
    const events = randomEvents(51, { projectId: TEST_PROJECT, startMs: Date.parse('2026-10-12T00:00:00.000Z'), days: 8, visits: 300 });
    write(app, events);
    await app.start();
    // Nine steps (all time and eight days), one per event-loop turn.
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    for (const q of ['', 'dateFrom=2026-10-13&dateTo=2026-10-19']) {
      const res = await app.api(key).get(`/v1/analytics/${TEST_PROJECT}/searches?${q}${q ? '&' : ''}limit=100`).expect(200);
      const expected = bruteForce(events, TEST_PROJECT, q ? Date.parse('2026-10-13T00:00:00Z') : null, q ? Date.parse('2026-10-19T00:00:00Z') : null);
      expect(res.body.searches).toEqual(expected.searches.slice(0, 100));
      expect(res.body.totalSearches).toBe(expected.totalSearches);
    }
    // A second start whose warm-up is cut short by stop(): nothing runs against a closed database.
    const again = analyticsOf(app);
    await again.start?.();
    await again.stop?.();
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
});
