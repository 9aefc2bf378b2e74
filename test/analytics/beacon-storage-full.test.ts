/**
 * Issue 37, finding 7: on a full disk a beacon is refused (503 STORAGE_FULL with Retry-After,
 * counted), never acknowledged and then lost; once there is space, the same request counts as the
 * first time would have. The disk is filled for real as SQLite sees it: `PRAGMA max_page_count`
 * makes every write that needs a new page fail with SQLITE_FULL, exactly as on a full disk.
 */
import supertest from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestAppliance, TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';
import { BROWSER_UA } from '../reader-analytics/helpers.js';
import { postEvents, serveProject, SITE_HOST } from './helpers.js';

let t: TestAppliance | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const FULL = { error: "The appliance's storage is full; nothing was saved. Free space in its state directory, then retry" };
const rows = (app: TestAppliance, table: string) => (app.ctx.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
const metric = async (app: TestAppliance, line: RegExp) => Number(line.exec((await supertest(app.admin).get('/metrics').expect(200)).text)?.[1] ?? 0);
/** A few pages of room left: the first beacons fit, then the database is full. */
const fillDisk = (app: TestAppliance) => app.ctx.db.pragma(`max_page_count = ${(app.ctx.db.pragma('page_count', { simple: true }) as number) + 200}`);

/** Post `batch(n)` for n = 0, 1, … until one is refused; the events acknowledged before it, and it. */
async function untilRefused(post: (body: unknown) => supertest.Test, batch: (n: number) => unknown[]) {
  let acknowledged = 0;
  for (let n = 0; n < 2000; n++) {
    const body = batch(n);
    const res = await post(body);
    if (res.status !== 202) return { acknowledged, res, body };
    acknowledged += (res.body as { accepted: number }).accepted;
  }
  throw new Error('the database never filled up');
}
const freeDisk = (app: TestAppliance) => app.ctx.db.pragma('max_page_count = 1073741823');

describe('beacons on a full disk', () => {
  it('refuses search events with 503 STORAGE_FULL; every 202 was stored; the same request counts once there is space', async () => {
    const app = (t = createTestAppliance({ config: { analytics: { ingest: { perClientPerMinute: 100_000 } } } }));
    serveProject(app, TEST_PROJECT);
    const batch = (n: number) => Array.from({ length: 100 }, (_, i) => ({ type: 'search', query: `${'term '.repeat(30)}${n}-${i}`, resultCount: 3, sessionId: `s-${n}-${i}` }));
    fillDisk(app);
    const refused = await untilRefused((body) => postEvents(app, body), batch);
    const { acknowledged } = refused;
    expect(refused.res.status).toBe(503);
    expect(refused.res.body).toEqual(FULL);
    expect(refused.res.headers['retry-after']).toBe('60');
    // Every event answered 202 is in the database, and nothing of the refused request.
    expect(acknowledged).toBeGreaterThan(0);
    expect(rows(app, 'search_events')).toBe(acknowledged);
    expect(await metric(app, /docs_appliance_beacon_requests_refused_total\{code="STORAGE_FULL"\} (\d+)/)).toBe(1);
    expect(await metric(app, /docs_appliance_search_events_total\{outcome="dropped"\} (\d+)/)).toBe(100);
    expect(app.logs.filter((l) => l.includes('beacon refused with 503')).length).toBe(1);
    expect(app.logs.find((l) => l.includes('beacon refused with 503'))).toContain('"level":50');

    // Refused again while full (the log line is not repeated within the minute: throttled).
    await postEvents(app, refused.body).expect(503);
    expect(app.logs.filter((l) => l.includes('beacon refused with 503')).length).toBe(1);
    // Space again: the very same request is stored in full, not taken for repeats of a lost write.
    freeDisk(app);
    const again = await postEvents(app, refused.body).expect(202);
    expect(again.body).toEqual({ accepted: 100, rejected: [] });
    expect(rows(app, 'search_events')).toBe(acknowledged + 100);
  });

  it('refuses page views and feedback with 503 STORAGE_FULL; resent after space, the views are not taken for duplicates', async () => {
    const app = (t = createTestAppliance({ config: { analytics: { ingest: { perClientPerMinute: 100_000 } } } }));
    serveProject(app, TEST_PROJECT);
    const post = (body: unknown) => supertest(app.site).post('/_/events').set('Host', SITE_HOST).set('Content-Type', 'application/json').set('User-Agent', BROWSER_UA).send(JSON.stringify(body));
    const views = (n: number) => Array.from({ length: 100 }, (_, i) => ({ type: 'pageview', path: `/guides/${'long-path-segment-'.repeat(8)}${n}-${i}`, viewId: `v-${n}-${i}` }));
    fillDisk(app);
    const refused = await untilRefused(post, views);
    const { acknowledged } = refused;
    expect(refused.res.status).toBe(503);
    expect(refused.res.body).toEqual(FULL);
    expect(refused.res.headers['retry-after']).toBe('60');
    expect(acknowledged).toBeGreaterThan(0);
    expect(rows(app, 'page_views')).toBe(acknowledged);
    expect(await metric(app, /docs_appliance_reader_events_total\{outcome="dropped"\} (\d+)/)).toBe(100);
    // Feedback: its own transaction, refused the same way once it no longer fits.
    const feedback = (n: number) => Array.from({ length: 50 }, (_, i) => ({ type: 'feedback', path: '/guides/intro', source: 'contextual', helpful: false, comment: `${'The third step fails. '.repeat(20)}${n}`, feedbackId: `fb-${n}-${i}` }));
    fillDisk(app);
    const fb = await untilRefused(post, feedback);
    expect([fb.res.status, fb.res.body]).toEqual([503, FULL]);
    expect(rows(app, 'page_feedback')).toBe(fb.acknowledged);
    expect(await metric(app, /docs_appliance_beacon_requests_refused_total\{code="STORAGE_FULL"\} (\d+)/)).toBe(2);

    freeDisk(app);
    const again = await post(refused.body).expect(202);
    expect(again.body).toMatchObject({ accepted: 100, rejected: [] });
    expect(rows(app, 'page_views')).toBe(acknowledged + 100);
    expect(await metric(app, /docs_appliance_reader_events_total\{outcome="duplicate"\} (\d+)/)).toBe(0);
    await post(fb.body).expect(202);
    expect(rows(app, 'page_feedback')).toBe(fb.acknowledged + 50);
  });
});
