import { afterEach, describe, expect, it } from 'vitest';
import { createTestAppliance, TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';
import { manualClock } from '../../app/clock.js';
import { analyticsOf, postEvents } from './helpers.js';

let t: TestAppliance | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const DAY = 86_400_000;

describe('raw event retention', () => {
  it('deletes raw events past rawRetentionDays only below a fence a cursor lifetime old; whole-day reports stay exact', async () => {
    const clock = manualClock('2026-11-01T12:00:00.000Z');
    const app = createTestAppliance({ clock, config: { analytics: { rawRetentionDays: 2, rateLimitPerHour: 1000 } } });
    t = app;
    const key = app.createKey();
    const feature = analyticsOf(app);
    const rawCount = () => (app.ctx.db.prepare('SELECT count(*) AS n FROM search_events').get() as { n: number }).n;
    await postEvents(app, [
      { type: 'search', query: 'old', resultCount: 1, sessionId: 'a' },
      { type: 'click', query: 'old', path: '/faq', sessionId: 'a' },
    ]).expect(202);
    feature.flush();
    // The first run only sets the fence; nothing is old enough yet anyway.
    expect(feature.applyRetention()).toEqual({ deleted: 0, fenceId: 0 });
    clock.advance(3 * DAY);
    await postEvents(app, { type: 'search', query: 'new', resultCount: 1, sessionId: 'b' }).expect(202);
    feature.flush();
    const before = (await app.api(key).get(`/v1/analytics/${TEST_PROJECT}/searches?dateFrom=2026-11-01`).expect(200)).body;
    const result = feature.applyRetention();
    expect(result.deleted).toBe(2);
    expect(rawCount()).toBe(1);
    const after = (await app.api(key).get(`/v1/analytics/${TEST_PROJECT}/searches?dateFrom=2026-11-01`).expect(200)).body;
    expect(after).toEqual(before);
    expect(after.searches).toEqual([
      { searchQuery: 'new', hits: 1, ctr: 0, topClickedPage: null, lastSearchedAt: '2026-11-04T12:00:00.000Z' },
      { searchQuery: 'old', hits: 1, ctr: 100, topClickedPage: '/faq', lastSearchedAt: '2026-11-01T12:00:00.000Z' },
    ]);
    // The event stored after the fence was set survives until a later fence covers it.
    clock.advance(3 * DAY);
    expect(feature.applyRetention().deleted).toBe(1);
    expect(rawCount()).toBe(0);
  });
});
