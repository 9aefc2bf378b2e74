import { describe, expect, it } from 'vitest';
import { OTHER_PROJECT, TEST_PROJECT } from '../helpers/appliance.js';
import { bruteForce, randomEvents, type RefEvent } from './reference.js';
import { allPages, analyticsOf, importEvents, postEvents, reportAppliances } from './helpers.js';
import { parseInstant } from '../../app/analytics/report-params.js';

const START = Date.parse('2026-10-01T00:00:00.000Z');
const appliance = reportAppliances();

describe('search report against a brute-force computation', () => {
  it('matches hits, ctr, topClickedPage, lastSearchedAt and totalSearches over random events and ranges', async () => {
    const app = appliance();
    const key = app.createKey();
    const events = randomEvents(7, { projectId: TEST_PROJECT, otherProjectId: OTHER_PROJECT, startMs: START, days: 6, visits: 900 });
    await importEvents(app, events);
    const ranges: [string | null, string | null][] = [
      [null, null],
      ['2026-10-02', '2026-10-05'],
      ['2026-10-02', null],
      [null, '2026-10-04'],
      // Offsets: boundaries that are not UTC midnight, partial days on both sides.
      ['2026-10-02T10:30:00+05:30', '2026-10-05T18:00:00-08:00'],
      ['2026-10-01T23:00:00-01:00', '2026-10-03T00:00:00+14:00'],
      ['2026-10-03T12:00:00Z', '2026-10-03T12:00:00.001Z'],
      ['2026-10-03T06:15:00+09:45', '2026-10-06T00:00:00Z'],
      ['2026-10-02T00:00:00', '2026-10-03T00:00:00.000+00:00'],
    ];
    for (const [from, to] of ranges) {
      const q = [from && `dateFrom=${encodeURIComponent(from)}`, to && `dateTo=${encodeURIComponent(to)}`].filter(Boolean).join('&');
      const expected = bruteForce(events, TEST_PROJECT, from ? parseInstant(from)! : null, to ? parseInstant(to)! : null);
      for (const limit of [100, 7]) {
        const got = await allPages(app, key, q, limit);
        expect({ range: [from, to], ...got }).toEqual({ range: [from, to], ...expected });
      }
    }
  });

  it('puts an event on each side of a dateTo boundary correctly, whatever the offset', async () => {
    const app = appliance();
    const key = app.createKey();
    const at = (iso: string, query: string): RefEvent => ({ type: 'search', projectId: TEST_PROJECT, query, sessionId: `s-${query}`, atMs: Date.parse(iso), resultCount: 1 });
    // 2026-10-03T00:00:00Z written in several offsets.
    const boundary = ['2026-10-03', '2026-10-03T00:00:00Z', '2026-10-03T05:30:00+05:30', '2026-10-02T16:00:00-08:00', '2026-10-03T14:00:00+14:00'];
    await importEvents(app, [at('2026-10-02T23:59:59.999Z', 'before'), at('2026-10-03T00:00:00.000Z', 'on'), at('2026-10-03T00:00:00.001Z', 'after')]);
    for (const b of boundary) {
      const upTo = await app.api(key).get(`/v1/analytics/${TEST_PROJECT}/searches?dateTo=${encodeURIComponent(b)}`).expect(200);
      expect(upTo.body.searches.map((s: { searchQuery: string }) => s.searchQuery)).toEqual(['before']);
      const from = await app.api(key).get(`/v1/analytics/${TEST_PROJECT}/searches?dateFrom=${encodeURIComponent(b)}`).expect(200);
      expect(from.body.searches.map((s: { searchQuery: string }) => s.searchQuery).sort()).toEqual(['after', 'on']);
      expect(from.body.totalSearches).toBe(2);
    }
  });
});

describe('pagination while events arrive', () => {
  it('never skips or repeats a term, and the pages add up to the first page total', async () => {
    const app = appliance();
    const key = app.createKey();
    const events = randomEvents(11, { projectId: TEST_PROJECT, startMs: START, days: 5, visits: 700 });
    await importEvents(app, events);
    let batch = 0;
    const feature = analyticsOf(app);
    const pending: RefEvent[] = [];
    for (const q of ['', 'dateFrom=2026-10-02T06:00:00Z&dateTo=2026-10-05']) {
      const from = q ? Date.parse('2026-10-02T06:00:00Z') : null;
      const to = q ? Date.parse('2026-10-05T00:00:00Z') : null;
      // Events that arrived while the previous report was paged are part of this one.
      events.push(...pending.splice(0));
      const expected = bruteForce(events, TEST_PROJECT, from, to);
      const seen: { searchQuery: string; hits: number }[] = [];
      let url = `/v1/analytics/${TEST_PROJECT}/searches?${q}&limit=4`;
      let first: number | undefined;
      for (;;) {
        const res = await app.api(key).get(url).expect(200);
        first ??= res.body.totalSearches;
        expect(res.body.totalSearches).toBe(first);
        seen.push(...res.body.searches);
        if (!res.body.nextCursor) break;
        // New events for the same terms and days (and new terms) between pages, written both
        // through the import path and through beacons, then the cached ranking is dropped so
        // the next page is recomputed from rollups that already hold them.
        // Own sessions: the tracker sees each session's events in time order, as in production.
        const more = randomEvents(100 + batch, { projectId: TEST_PROJECT, startMs: START, days: 5, visits: 20, sessionPrefix: `late${batch++}-` });
        await importEvents(app, more, `more-${batch}.ndjson`);
        pending.push(...more);
        const beacon = { type: 'search', query: 'proxy', resultCount: 3, sessionId: `beacon-${batch}`, timestamp: '2026-10-19T12:00:00.000Z' };
        await postEvents(app, beacon).expect(202);
        pending.push({ type: 'search', projectId: TEST_PROJECT, query: 'proxy', sessionId: `beacon-${batch}`, atMs: Date.parse(beacon.timestamp), resultCount: 3 });
        feature.clearReportCache(batch % 2 === 0); // sometimes as after a restart: day vectors too
        url = `/v1/analytics/${TEST_PROJECT}/searches?cursor=${encodeURIComponent(res.body.nextCursor)}`;
      }
      const names = seen.map((s) => s.searchQuery);
      expect(new Set(names).size).toBe(names.length);
      expect(seen.reduce((n, s) => n + s.hits, 0)).toBe(first);
      expect(seen).toEqual(expected.searches);
      expect(first).toBe(expected.totalSearches);
    }
    // What arrived meanwhile is in the next report.
    const fresh = await app.api(key).get(`/v1/analytics/${TEST_PROJECT}/searches`).expect(200);
    events.push(...pending);
    expect(fresh.body.totalSearches).toBe(bruteForce(events, TEST_PROJECT, null, null).totalSearches);
  });
});
