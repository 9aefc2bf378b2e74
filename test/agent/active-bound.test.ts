import { afterEach, describe, expect, it } from 'vitest';
import { TEST_ORG } from '../helpers/appliance.js';
import { createBareRemote } from './helpers/git-remote.js';
import { createAgentAppliance, jobUrl } from './helpers/agent-appliance.js';

/* Features not started: created jobs stay active (queued), so the bound is seen exactly. */
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setup(agent: { maxActiveJobsPerOrg: number; maxActiveJobs: number }) {
  const remote = createBareRemote();
  cleanups.push(() => remote.remove());
  const t = createAgentAppliance({ modelUrl: 'http://127.0.0.1:9/v1', repository: remote.bare, agent });
  cleanups.push(() => t.close());
  return { t, key: t.createKey() };
}

describe('agent jobs: active jobs are bounded', () => {
  it('past agent.maxActiveJobsPerOrg a new job is 429 with Retry-After and nothing is created; a finished job frees its place', async () => {
    const { t, key } = setup({ maxActiveJobsPerOrg: 2, maxActiveJobs: 10 });
    const a = (await t.api(key).post(jobUrl()).send({ prompt: 'one' }).expect(201)).body.id as string;
    await t.api(key).post(jobUrl()).send({ prompt: 'two' }).expect(201);
    const full = await t.api(key).post(jobUrl()).send({ prompt: 'three' }).expect(429);
    expect(full.headers['retry-after']).toBe('60');
    expect(full.body).toEqual({ error: 'Your organization already has 2 active agent jobs, the most allowed (agent.maxActiveJobsPerOrg); nothing was created. Retry in 60 s' });
    expect(t.ctx.stores.agentJobs.countActive(TEST_ORG)).toBe(2);

    // A message to an active job takes no new place.
    await t.api(key).post(`${jobUrl(a)}/message`).send({ prompt: 'also this' }).expect(200);

    // The run of `a` ends: its place is free, a new job fits; sending `a` back to active then does not.
    const s = t.ctx.stores.agentJobs;
    while (s.get(a)!.status === 'active') {
      s.claimNext();
      for (const j of s.list()) if (j.runState === 'running') s.complete(j.id, null);
    }
    const c = (await t.api(key).post(jobUrl()).send({ prompt: 'three' }).expect(201)).body.id as string;
    const again = await t.api(key).post(`${jobUrl(a)}/message`).send({ prompt: 'reopen' }).expect(429);
    expect(again.body.error).toMatch(/agent\.maxActiveJobsPerOrg/);
    expect(s.get(a)!.status).toBe('completed');
    expect(c).toMatch(/^aj_/);
  });

  it('past agent.maxActiveJobs (all organizations) a new job is 429 naming that limit', async () => {
    const { t, key } = setup({ maxActiveJobsPerOrg: 10, maxActiveJobs: 1 });
    await t.api(key).post(jobUrl()).send({ prompt: 'one' }).expect(201);
    const full = await t.api(key).post(jobUrl()).send({ prompt: 'two' }).expect(429);
    expect(full.headers['retry-after']).toBe('60');
    expect(full.body.error).toMatch(/^The appliance already has 1 active agent jobs, the most allowed \(agent\.maxActiveJobs\)/);
  });
});
