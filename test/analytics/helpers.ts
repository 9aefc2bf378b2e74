import fs from 'node:fs';
import path from 'node:path';
import supertest from 'supertest';
import { afterEach, expect } from 'vitest';
import { createTestAppliance, OTHER_PROJECT, TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';
import { manualClock } from '../../app/clock.js';
import type { AnalyticsFeature } from '../../app/analytics/feature.js';
import type { SiteFeature } from '../../app/site/feature.js';
import { importNdjson } from '../../app/analytics/import.js';
import { createSearchEventStore } from '../../data/stores/search-events.js';
import { toNdjson, type RefEvent } from './reference.js';

export const SITE_HOST = 'docs.test.internal';

/** The analytics feature of a test appliance (to flush its write buffer, run retention). */
export function analyticsOf(t: TestAppliance): AnalyticsFeature {
  const f = t.features.find((x) => x.name === 'analytics');
  if (!f) throw new Error('analytics feature is not mounted');
  return f as AnalyticsFeature;
}

/**
 * Make the site listener serve a one-page site exported for `projectId` (null: a site without a
 * manifest), activated as the loader activates a verified bundle: beacons are recorded only for
 * the served site's project.
 */
export function serveProject(t: TestAppliance, projectId: string | null = TEST_PROJECT): void {
  const dir = path.join(t.stateDir, 'served', projectId ?? 'no-project');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), `<p>${projectId}</p>`);
  const site = t.features.find((f) => f.name === 'site') as SiteFeature;
  site.loader.activateLoaded({ version: `site-${projectId ?? 'none'}`, dir, projectId, mounted: true, source: dir, fromCache: false, pageCount: 1 }, 3);
}

/** POST /_/events on the site app as the served test project's domain (the test project's site is served unless another is). */
export function postEvents(t: TestAppliance, body: unknown, opts: { host?: string; contentType?: string; ip?: string } = {}) {
  if (!(t.features.find((f) => f.name === 'site') as SiteFeature).current()) serveProject(t, TEST_PROJECT);
  const req = supertest(t.site)
    .post('/_/events')
    .set('Host', opts.host ?? SITE_HOST)
    .set('Content-Type', opts.contentType ?? 'application/json');
  if (opts.ip) req.set('X-Forwarded-For', opts.ip);
  return req.send(typeof body === 'string' ? body : JSON.stringify(body));
}

/** Import events through the real `analytics import` code; every line must be accepted. */
export async function importEvents(app: TestAppliance, events: readonly RefEvent[], name = 'events.ndjson') {
  const file = path.join(app.stateDir, name);
  fs.writeFileSync(file, toNdjson(events));
  const rejected: string[] = [];
  const r = await importNdjson(file, {
    store: createSearchEventStore(app.ctx.db),
    knownProjects: [TEST_PROJECT, OTHER_PROJECT],
    onRejected: (line, message) => rejected.push(`${line}: ${message}`),
    now: () => app.clock.now().getTime(),
  });
  expect(rejected).toEqual([]);
  return r;
}

/** Every page of a report, following nextCursor; checks each page's own invariants. */
export async function allPages(app: TestAppliance, key: string, query: string, limit: number) {
  const searches: Record<string, unknown>[] = [];
  const totals = new Set<number>();
  let url = `/v1/analytics/${TEST_PROJECT}/searches?${query}${query ? '&' : ''}limit=${limit}`;
  for (let i = 0; i < 1000; i++) {
    const res = await app.api(key).get(url).expect(200);
    expect(res.body.searches.length).toBeLessThanOrEqual(limit);
    searches.push(...res.body.searches);
    totals.add(res.body.totalSearches);
    if (!res.body.nextCursor) break;
    expect(res.body.searches.length).toBe(limit);
    url = `/v1/analytics/${TEST_PROJECT}/searches?cursor=${encodeURIComponent(res.body.nextCursor)}`;
  }
  expect(totals.size).toBe(1);
  return { searches, totalSearches: [...totals][0]! };
}

/**
 * For report suites: returns a maker of test appliances on a manual clock (2026-10-20) with a rate
 * limit that never bites, each closed after its test.
 */
export function reportAppliances(): () => TestAppliance {
  let t: TestAppliance | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  return () => {
    t = createTestAppliance({ clock: manualClock('2026-10-20T00:00:00.000Z'), config: { analytics: { rateLimitPerHour: 100_000 } } });
    return t;
  };
}
