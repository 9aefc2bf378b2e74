/** The assistant analytics operations against the served OpenAPI document, and their retention. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversationStore } from '../../app/assistant/conversations.js';
import { createTestAppliance, OTHER_PROJECT, TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';

describe('assistant analytics', () => {
  let t: TestAppliance;
  let key: string;
  let threadId: string;
  beforeAll(() => {
    t = createTestAppliance();
    key = t.createKey();
    const store = createConversationStore(t.ctx.db, () => t.clock.now());
    threadId = store.thread(TEST_PROJECT, null);
    const day = (d: number) => new Date(Date.UTC(2026, 10, d, 12));
    store.addTurn({ threadId, projectId: TEST_PROJECT, caller: 'web', askedAt: day(1), answeredAt: day(1), query: 'old question', response: 'old', sources: [], resolution: 'unanswered', pageUrl: '/install/' });
    store.addTurn({ threadId, projectId: TEST_PROJECT, caller: 'api', askedAt: day(20), answeredAt: day(20), query: 'new question', response: 'See [Billing](/billing/).', sources: [{ title: 'Billing', url: '/billing/' }], resolution: 'answered', pageUrl: null });
    store.addTurn({ threadId: store.thread(OTHER_PROJECT, null), projectId: OTHER_PROJECT, caller: 'web', askedAt: day(20), answeredAt: day(20), query: 'other org', response: 'x', sources: [], resolution: 'answered', pageUrl: null });
  });
  afterAll(() => t.close());

  it('lists turns in a date range (dateTo exclusive), never another project\'s', async () => {
    const all = await t.api(key).get(`/v1/analytics/${TEST_PROJECT}/assistant`).expect(200);
    expect(all.body.conversations.map((c: { query: string }) => c.query)).toEqual(['old question', 'new question']);
    const recent = await t.api(key).get(`/v1/analytics/${TEST_PROJECT}/assistant?dateFrom=2026-11-10&dateTo=2026-11-21`).expect(200);
    expect(recent.body).toMatchObject({ hasMore: false, nextCursor: null, conversations: [{ query: 'new question', sources: [{ title: 'Billing', url: '/billing/' }], resolutionStatus: 'answered', queryCategory: null, responseType: 'answer' }] });
    await t.api(key).get(`/v1/analytics/${TEST_PROJECT}/assistant?limit=0`).expect(400);
    await t.api(key).get(`/v1/analytics/${TEST_PROJECT}/assistant?cursor=nope`).expect(400);
    await t.api(key).get(`/v1/analytics/${OTHER_PROJECT}/assistant`).expect(404);
  });

  it('returns a thread transcript and counts callers', async () => {
    const thread = await t.api(key).get(`/v1/analytics/${TEST_PROJECT}/assistant/threads/${threadId}`).expect(200);
    expect(thread.body.messages.map((m: { role: string; content: string }) => `${m.role}:${m.content}`)).toEqual(['user:old question', 'assistant:old', 'user:new question', 'assistant:See [Billing](/billing/).']);
    await t.api(key).get(`/v1/analytics/${TEST_PROJECT}/assistant/threads/not-a-ulid`).expect(400);
    const stats = await t.api(key).get(`/v1/analytics/${TEST_PROJECT}/assistant/caller-stats?dateFrom=2026-11-10`).expect(200);
    expect(stats.body).toEqual({ web: 0, api: 1, other: 0, total: 1 });
  });

  it('deletes turns older than analytics.rawRetentionDays with the retention job', async () => {
    t.clock.set(new Date(Date.UTC(2026, 10, 1, 12) + 95 * 86_400_000));
    const job = t.features.find((f) => f.name === 'assistant')!.cron!.find((c) => c.name === 'assistant-retention')!;
    expect(await job.run()).toEqual({ deleted: 1 });
    const all = await t.api(key).get(`/v1/analytics/${TEST_PROJECT}/assistant`).expect(200);
    expect(all.body.conversations.map((c: { query: string }) => c.query)).toEqual(['new question']);
  });
});
