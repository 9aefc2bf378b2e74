import { afterEach, describe, expect, it } from 'vitest';
import { createTestAppliance, OTHER_ORG, TEST_ORG, type TestAppliance } from '../helpers/appliance.js';
import { pollJob } from './helpers.js';

let t: TestAppliance | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Not started: jobs stay `queued`, so the test sees the bound exactly. */
function appliance(limits: { maxQueuedJobsPerOrg: number; maxQueuedJobs: number }) {
  t = createTestAppliance({ config: { renderer: { threads: 1 }, staticExport: limits } });
  return t;
}

describe('POST /v1/static-export/jobs: the queue is bounded', () => {
  it('per organization: past staticExport.maxQueuedJobsPerOrg it answers 429 with Retry-After and creates nothing; other organizations still queue', async () => {
    const t = appliance({ maxQueuedJobsPerOrg: 2, maxQueuedJobs: 10 });
    const key = t.createKey();
    const other = t.createKey(OTHER_ORG);
    const post = (k: string, domain = 'docs.test.internal') => t.api(k).post('/v1/static-export/jobs').send({ domain });
    await post(key).expect(202);
    await post(key).expect(202);
    const full = await post(key).expect(429);
    expect(full.headers['retry-after']).toBe('60');
    expect(full.body).toEqual({ error: 'Your organization already has 2 export jobs waiting to run, the most allowed (staticExport.maxQueuedJobsPerOrg); nothing was created. Retry in 60 s' });
    expect(t.ctx.stores.exportJobs.countQueued()).toBe(2);
    await post(other, 'docs.other.internal').expect(202);

    // Once the queue runs, places free up.
    await t.start();
    const first = t.ctx.stores.exportJobs.listByStatus('queued').find((j) => j.orgId === TEST_ORG)!;
    expect((await pollJob(t, key, first.id, { timeoutMs: 60_000 })).pop()!.status).toBe('completed');
    expect(t.ctx.stores.exportJobs.countQueued(TEST_ORG)).toBeLessThan(2);
    await post(key).expect(202);
  });

  it('in total: past staticExport.maxQueuedJobs it answers 429 naming that limit, also under 30 parallel requests', async () => {
    const t = appliance({ maxQueuedJobsPerOrg: 100, maxQueuedJobs: 5 });
    const key = t.createKey();
    const other = t.createKey(OTHER_ORG);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? t.api(other).post('/v1/static-export/jobs').send({ domain: 'docs.other.internal' }) : t.api(key).post('/v1/static-export/jobs').send({ domain: 'docs.test.internal' }))),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
    const refused = results.find((r) => r.status === 429)!;
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.body.error).toMatch(/^The appliance already has 5 export jobs waiting to run, the most allowed \(staticExport\.maxQueuedJobs\)/);
    expect(t.ctx.stores.exportJobs.countQueued()).toBe(5);
  });
});
