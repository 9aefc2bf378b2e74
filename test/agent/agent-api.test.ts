import { afterEach, describe, expect, it } from 'vitest';
import { createTestAppliance, OTHER_ORG, OTHER_PROJECT, type TestAppliance } from '../helpers/appliance.js';
import { archiveExpired } from '../../app/agent/feature.js';
import { checkAgainstSpec } from '../helpers/openapi.js';
import { createBareRemote } from './helpers/git-remote.js';
import { createAgentAppliance, jobUrl } from './helpers/agent-appliance.js';

/*
 * The routes without runs: the features are not started, so jobs stay queued (`active`) and the
 * tests see exactly what the API answers. Every response is checked against the OpenAPI document.
 */
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setup(agent: Record<string, unknown> = {}): { t: TestAppliance; key: string } {
  const remote = createBareRemote();
  cleanups.push(() => remote.remove());
  const t = createAgentAppliance({ modelUrl: 'http://127.0.0.1:9/v1', repository: remote.bare, agent });
  cleanups.push(() => t.close());
  return { t, key: t.createKey() };
}

describe('POST /v2/agent/{projectId}/job', () => {
  it('creates an active job with the seed shape', async () => {
    const { t, key } = setup();
    const r = await t.api(key).post(jobUrl()).send({ prompt: 'Document the new flag' }).expect(201);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^aj_[0-9a-f]{20}$/),
      status: 'active',
      source: { repository: t.config.projects[0]!.repository, ref: `docs-agent/${(r.body.id as string).slice(3)}` },
      model: 'test-model',
      prLink: null,
      createdAt: t.clock.now().toISOString(),
      archivedAt: null,
    });
    expect(r.headers['x-request-id']).toBeDefined();
    expect(r.headers['ratelimit-limit']).toBe('100');
    expect(r.headers['ratelimit-remaining']).toBe('99');
    const got = await t.api(key).get(jobUrl(r.body.id)).expect(200);
    expect(got.body).toEqual(r.body);
  });

  it.each([
    ['no body field', {}, 'prompt'],
    ['an empty prompt', { prompt: '' }, 'prompt: must not be empty'],
    ['a blank prompt', { prompt: '   \n' }, 'prompt: must not be empty'],
    ['a number', { prompt: 42 }, 'prompt'],
    ['null', { prompt: null }, 'prompt'],
  ])('answers 400 for %s', async (_what, body, message) => {
    const { t, key } = setup();
    const r = await t.api(key).post(jobUrl()).send(body).expect(400);
    expect(Object.keys(r.body)).toEqual(['error']);
    expect(r.body.error).toContain(message);
    expect(t.ctx.stores.agentJobs.list()).toHaveLength(0);
  });

  it('answers 400 for malformed JSON and a non-object body', async () => {
    const { t, key } = setup();
    await t.api(key).post(jobUrl()).set('content-type', 'application/json').send('{"prompt":').expect(400);
    const r = await t.api(key).post(jobUrl()).send(['prompt']).expect(400);
    expect(r.body.error).toContain('body must be a JSON object');
  });

  it('answers 400 saying the agent is not configured when no model is set, and creates nothing', async () => {
    const t = createTestAppliance();
    cleanups.push(() => t.close());
    const key = t.createKey();
    const r = await t.api(key).post(jobUrl()).send({ prompt: 'Anything' }).expect(400);
    expect(r.body.error).toBe('The agent is not configured on this appliance: set agent.baseUrl and agent.model in the configuration');
    expect(t.ctx.stores.agentJobs.list()).toHaveLength(0);
  });

  it('answers 400 when the project has no repository', async () => {
    const t = createTestAppliance({ config: { agent: { baseUrl: 'http://127.0.0.1:9/v1', model: 'm' } } });
    cleanups.push(() => t.close());
    const r = await t.api(t.createKey()).post(jobUrl()).send({ prompt: 'Anything' }).expect(400);
    expect(r.body.error).toContain('set projects[].repository');
  });

  it('answers 404 for an unknown project and for another organization’s project', async () => {
    const { t, key } = setup();
    await t.api(key).post(jobUrl(undefined, 'ffffffffffffffffffffffff')).send({ prompt: 'x' }).expect(404, { error: 'Project not found' });
    await t.api(key).post(jobUrl(undefined, OTHER_PROJECT)).send({ prompt: 'x' }).expect(404, { error: 'Project not found' });
  });

  it('answers 401 without a key and 403 for a read-only key', async () => {
    const { t } = setup();
    await t.api().post(jobUrl()).send({ prompt: 'x' }).expect(401);
    await t.api(t.createKey(undefined, { scopes: ['read'] })).post(jobUrl()).send({ prompt: 'x' }).expect(403);
  });
});

describe('GET /v2/agent/{projectId}/job/{id}', () => {
  it('answers 404 {"error": "Job not found"} for an unknown job, another project’s and another organization’s', async () => {
    const { t, key } = setup();
    await t.api(key).get(jobUrl('aj_00000000000000000000')).expect(404, { error: 'Job not found' });
    const created = await t.api(key).post(jobUrl()).send({ prompt: 'x' }).expect(201);
    // The same job id under a project of another organization: the project is not found first.
    await t.api(key).get(jobUrl(created.body.id, OTHER_PROJECT)).expect(404, { error: 'Project not found' });
    const otherKey = t.createKey(OTHER_ORG);
    await t.api(otherKey).get(jobUrl(created.body.id, OTHER_PROJECT)).expect(404, { error: 'Job not found' });
    await t.api(otherKey).get(jobUrl(created.body.id)).expect(404, { error: 'Project not found' });
  });
});

describe('POST /v2/agent/{projectId}/job/{id}/message', () => {
  it('sends a completed job back to active, 409 once archived, 404 for an unknown job', async () => {
    const { t, key } = setup();
    const created = await t.api(key).post(jobUrl()).send({ prompt: 'x' }).expect(201);
    const id = created.body.id as string;
    t.ctx.stores.agentJobs.claimNext();
    t.ctx.stores.agentJobs.complete(id, 'http://git.test.internal/pulls/7');
    const done = await t.api(key).get(jobUrl(id)).expect(200);
    expect(done.body).toMatchObject({ status: 'completed', prLink: 'http://git.test.internal/pulls/7' });

    const r = await t.api(key).post(`${jobUrl(id)}/message`).send({ prompt: 'and one more thing' }).expect(200);
    expect(r.body).toMatchObject({ id, status: 'active', prLink: null, archivedAt: null });
    expect(t.ctx.stores.agentJobs.get(id)).toMatchObject({ turn: 2, prLink: 'http://git.test.internal/pulls/7' });

    t.ctx.stores.agentJobs.claimNext();
    t.ctx.stores.agentJobs.fail(id, 'boom');
    const archived = t.ctx.stores.agentJobs.archive(id);
    expect(archived.ok).toBe(true);
    const a = await t.api(key).get(jobUrl(id)).expect(200);
    expect(a.body).toMatchObject({ status: 'archived', archivedAt: t.clock.now().toISOString() });
    const conflict = await t.api(key).post(`${jobUrl(id)}/message`).send({ prompt: 'again' }).expect(409);
    expect(conflict.body).toEqual({ error: 'Job is archived; start a new job' });

    await t.api(key).post(`${jobUrl('aj_00000000000000000000')}/message`).send({ prompt: 'x' }).expect(404, { error: 'Job not found' });
    await t.api(key).post(`${jobUrl(id)}/message`).send({ prompt: '' }).expect(400);
  });
});

describe('rate limit', () => {
  it('create and message share agent.rateLimitPerHour per project; 429 with Retry-After past it', async () => {
    const { t, key } = setup({ rateLimitPerHour: 3 });
    const a = await t.api(key).post(jobUrl()).send({ prompt: 'one' }).expect(201);
    await t.api(key).post(jobUrl()).send({ prompt: 'two' }).expect(201);
    const m = await t.api(key).post(`${jobUrl(a.body.id)}/message`).send({ prompt: 'three' }).expect(200);
    expect(m.headers['ratelimit-remaining']).toBe('0');
    const over = await t.api(key).post(jobUrl()).send({ prompt: 'four' }).expect(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(3500);
    expect(over.body.error).toContain('Rate limit exceeded');
    await t.api(key).post(`${jobUrl(a.body.id)}/message`).send({ prompt: 'five' }).expect(429);
    // Polling is not limited; nor is another project.
    await t.api(key).get(jobUrl(a.body.id)).expect(200);
    const otherKey = t.createKey(OTHER_ORG);
    await t.api(otherKey).post(jobUrl(undefined, OTHER_PROJECT)).send({ prompt: 'x' }).expect(400);
    // The window slides: an hour later the project may create again.
    t.clock.advance(3600_000 + 1000);
    await t.api(key).post(jobUrl()).send({ prompt: 'six' }).expect(201);
  });
});

describe('archiving', () => {
  it('archives completed and failed jobs older than agent.archiveAfterDays, never active ones', async () => {
    const { t, key } = setup({ archiveAfterDays: 2 });
    const ids: string[] = [];
    for (const p of ['done', 'broken', 'running']) ids.push((await t.api(key).post(jobUrl()).send({ prompt: p }).expect(201)).body.id as string);
    const [done, broken, running] = ids as [string, string, string];
    const s = t.ctx.stores.agentJobs;
    for (let i = 0; i < 3; i++) s.claimNext();
    s.complete(done, null);
    s.fail(broken, 'model gone');
    const clock = t.clock;
    clock.advance(86_400_000);
    expect(archiveExpired(t.ctx, t.config)).toEqual({ archived: 0 });
    clock.advance(86_400_000 + 1);
    expect(archiveExpired(t.ctx, t.config)).toEqual({ archived: 2 });
    for (const id of [done, broken]) {
      const r = await t.api(key).get(jobUrl(id)).expect(200);
      expect(r.body).toMatchObject({ status: 'archived', archivedAt: t.clock.now().toISOString() });
    }
    expect((await t.api(key).get(jobUrl(running)).expect(200)).body).toMatchObject({ status: 'active', archivedAt: null });
    // Archived conversations are dropped (no more messages are accepted); the active one stays.
    expect(s.conversation(done, 99)).toEqual([]);
    expect(s.conversation(running, 99).map((m) => m.body.content)).toEqual(['running']);
    // The policy is a cron job of the feature.
    const feature = t.features.find((f) => f.name === 'agent')!;
    expect(feature.cron?.map((c) => c.name)).toContain('agent-archive');
  });
});

describe('the OpenAPI description of AgentJob', () => {
  it('encodes the state rules, so every response the tests check obeys them', () => {
    const job = { id: 'aj_1', status: 'completed', source: { repository: 'r', ref: 'docs-agent/1' }, model: 'm', prLink: 'http://git/pulls/1', createdAt: '2026-11-01T00:00:00.000Z', archivedAt: null };
    const check = (body: unknown) => () =>
      checkAgainstSpec({ method: 'GET', path: '/v2/agent/aaaaaaaaaaaaaaaaaaaaaaaa/job/aj_1', status: 200, headers: { 'x-request-id': 'x' }, body, contentType: 'application/json' });
    expect(check(job)).not.toThrow();
    expect(check({ ...job, status: 'active' })).toThrow('body does not match');
    expect(check({ ...job, status: 'archived' })).toThrow('body does not match');
    expect(check({ ...job, archivedAt: '2026-11-02T00:00:00.000Z' })).toThrow('body does not match');
    expect(check({ ...job, status: 'archived', archivedAt: '2026-11-02T00:00:00.000Z' })).not.toThrow();
    expect(check({ ...job, prLink: 'not a uri' })).toThrow('body does not match');
  });
});
