import { describe, expect, it } from 'vitest';
import { OTHER_PROJECT, TEST_PROJECT } from '../helpers/appliance.js';
import { analyticsHourly } from '../../data/migrations/006_analytics_hourly.js';
import { bruteForce, randomEvents } from './reference.js';
import { allPages, analyticsOf, importEvents, reportAppliances } from './helpers.js';
import { parseInstant } from '../../app/analytics/report-params.js';

// Ranges whose ends fall inside an hour and inside a day: the whole hours of a partial day come
// from the hourly rollups (migration 006), the partial hours from raw events, the pages of the
// partial days from raw clicks of the page's terms. Everything against the brute-force reference.

const START = Date.parse('2026-10-01T00:00:00.000Z');
const appliance = reportAppliances();

const query = (from: string | null, to: string | null) =>
  [from && `dateFrom=${encodeURIComponent(from)}`, to && `dateTo=${encodeURIComponent(to)}`].filter(Boolean).join('&');

// Mid-hour and mid-day ends, alone and together, within one hour, across one hour boundary,
// across days, to the millisecond and in offsets that are not whole hours.
const RANGES: [string | null, string | null][] = [
  ['2026-10-02T07:20:00Z', '2026-10-02T07:50:00Z'],
  ['2026-10-02T07:20:00Z', '2026-10-02T08:10:00Z'],
  ['2026-10-02T07:20:00Z', '2026-10-02T19:45:30.250Z'],
  ['2026-10-02T07:00:00Z', '2026-10-02T19:45:00Z'],
  ['2026-10-02T07:20:00Z', '2026-10-02T19:00:00Z'],
  ['2026-10-01T13:37:12.345Z', '2026-10-03T04:05:06.789Z'],
  ['2026-10-01T13:37:12.345Z', null],
  [null, '2026-10-02T22:59:59.999Z'],
  ['2026-10-02T10:30:00+05:45', '2026-10-03T01:10:00-09:30'],
  ['2026-10-01T23:59:59.999Z', '2026-10-02T00:00:00.001Z'],
  ['2026-10-02T05:00:00Z', '2026-10-02T06:00:00Z'],
];

describe('ranges with partial hours and partial days', () => {
  it('match the brute-force report, before and after more events land in hours already read', async () => {
    const app = appliance();
    const key = app.createKey();
    // Two dense days (about 20 visits an hour) so every partial hour holds searches and clicks.
    const events = randomEvents(23, { projectId: TEST_PROJECT, otherProjectId: OTHER_PROJECT, startMs: START, days: 2, visits: 1000 });
    await importEvents(app, events, 'first.ndjson');
    const check = async () => {
      for (const [from, to] of RANGES) {
        const expected = bruteForce(events, TEST_PROJECT, from ? parseInstant(from)! : null, to ? parseInstant(to)! : null);
        for (const limit of [100, 3]) {
          const got = await allPages(app, key, query(from, to), limit);
          expect({ range: [from, to], limit, ...got }).toEqual({ range: [from, to], limit, ...expected });
        }
      }
    };
    await check();
    // Late events in the same hours: the cached hour vectors must be reread (version moved).
    const late = randomEvents(24, { projectId: TEST_PROJECT, startMs: START, days: 2, visits: 300, sessionPrefix: 'late-' });
    await importEvents(app, late, 'late.ndjson');
    events.push(...late);
    await check();
  });

  it('never skips or repeats a term while events arrive in the whole hours of a partial day', async () => {
    const app = appliance();
    const key = app.createKey();
    const events = randomEvents(31, { projectId: TEST_PROJECT, startMs: START, days: 2, visits: 800 });
    await importEvents(app, events, 'base.ndjson');
    const feature = analyticsOf(app);
    const [fromIso, toIso] = ['2026-10-01T06:40:00.500Z', '2026-10-02T13:20:00Z'];
    const expected = bruteForce(events, TEST_PROJECT, Date.parse(fromIso), Date.parse(toIso));
    const seen: { searchQuery: string; hits: number }[] = [];
    let url = `/v1/analytics/${TEST_PROJECT}/searches?${query(fromIso, toIso)}&limit=4`;
    let first: number | undefined;
    for (let batch = 0; ; batch++) {
      const res = await app.api(key).get(url).expect(200);
      first ??= res.body.totalSearches;
      expect(res.body.totalSearches).toBe(first);
      seen.push(...res.body.searches);
      if (!res.body.nextCursor) break;
      const more = randomEvents(500 + batch, { projectId: TEST_PROJECT, startMs: START, days: 2, visits: 15, sessionPrefix: `more${batch}-` });
      await importEvents(app, more, `more-${batch}.ndjson`);
      feature.clearReportCache(batch % 2 === 0);
      url = `/v1/analytics/${TEST_PROJECT}/searches?cursor=${encodeURIComponent(res.body.nextCursor)}`;
    }
    const names = seen.map((s) => s.searchQuery);
    expect(new Set(names).size).toBe(names.length);
    expect(seen).toEqual(expected.searches);
    expect(first).toBe(expected.totalSearches);
  });
});

describe('migration 006', () => {
  it('folds the raw events already stored into the same hourly rollups that ingest keeps', async () => {
    const app = appliance();
    const events = randomEvents(41, { projectId: TEST_PROJECT, otherProjectId: OTHER_PROJECT, startMs: START, days: 2, visits: 600 });
    await importEvents(app, events, 'events.ndjson');
    const db = app.ctx.db;
    const rows = () => db.prepare('SELECT project_pk, hour, term_id, hits, clicked, last_at_ms FROM search_hourly ORDER BY 1, 2, 3').all();
    const hours = () => db.prepare('SELECT project_pk, hour FROM search_hourly_totals ORDER BY 1, 2').all();
    const pages = () => db.prepare('SELECT project_pk, hour, term_id, path, clicks FROM search_hourly_pages ORDER BY 1, 2, 3, 4').all();
    const byIngest = rows();
    const hoursByIngest = hours();
    const pagesByIngest = pages();
    expect(byIngest.length).toBeGreaterThan(100);
    expect(pagesByIngest.length).toBeGreaterThan(50);
    db.exec('DROP TABLE search_hourly; DROP TABLE search_hourly_totals; DROP TABLE search_hourly_pages;');
    db.exec(analyticsHourly.up);
    expect(rows()).toEqual(byIngest);
    expect(hours()).toEqual(hoursByIngest);
    expect(pages()).toEqual(pagesByIngest);
    // The hourly pages add up to the daily ones kept since migration 003.
    const daily = db.prepare('SELECT project_pk, term_id, day, path, clicks FROM search_daily_pages ORDER BY 1, 2, 3, 4').all();
    const summed = db
      .prepare('SELECT project_pk, term_id, hour / 24 AS day, path, sum(clicks) AS clicks FROM search_hourly_pages GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4')
      .all();
    expect(summed).toEqual(daily);
  });
});
