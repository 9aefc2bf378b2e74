import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeGitHost } from './helpers/fake-git-host.js';
import { finish, hang, startFakeModel, toolCall } from './helpers/fake-model.js';
import { createBareRemote } from './helpers/git-remote.js';
import { createAgentAppliance, jobUrl, pollUntilDone, waitFor } from './helpers/agent-appliance.js';
import { MAX_ATTEMPTS_PER_TURN } from '../../app/agent/job-queue.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('agent jobs across a restart', { timeout: 60_000 }, () => {
  it('re-runs the interrupted turn from its prompt after a restart on the same state dir', async () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-restart-'));
    cleanups.push(() => fs.rmSync(stateDir, { recursive: true, force: true }));
    const remote = createBareRemote();
    cleanups.push(() => remote.remove());
    const host = await startFakeGitHost();
    cleanups.push(() => host.close());

    // First process: the run writes a file, then hangs on the model; the process stops mid-run.
    const model1 = await startFakeModel([toolCall('write_file', { path: 'partial.mdx', content: 'half\n' }), hang()]);
    cleanups.push(() => model1.close());
    const t1 = createAgentAppliance({ modelUrl: model1.baseUrl, repository: remote.bare, gitHostUrl: host.apiUrl, stateDir });
    await t1.start();
    const key = t1.createKey();
    const created = await t1.api(key).post(jobUrl()).send({ prompt: 'Add a page' }).expect(201);
    const id = created.body.id as string;
    await waitFor(() => model1.requests.length >= 2 || undefined, 40_000, 'the run to reach the model twice');
    expect(t1.ctx.stores.agentJobs.get(id)).toMatchObject({ status: 'active', runState: 'running', attempts: 1 });
    await t1.close();
    expect(fs.existsSync(path.join(stateDir, 'docs-appliance.db'))).toBe(true);

    // Second process on the same state dir: the job is still active, and runs again from the prompt.
    const model2 = await startFakeModel([toolCall('write_file', { path: 'guides/new.mdx', content: 'new page\n' }), finish('Added a page.')]);
    cleanups.push(() => model2.close());
    const t2 = createAgentAppliance({ modelUrl: model2.baseUrl, repository: remote.bare, gitHostUrl: host.apiUrl, stateDir });
    cleanups.push(() => t2.close());
    const before = await t2.api(key).get(jobUrl(id)).expect(200);
    expect(before.body).toMatchObject({ status: 'active', prLink: null });
    await t2.start();
    const { body } = await pollUntilDone(t2, key, id);
    expect(body).toMatchObject({ status: 'completed', prLink: 'http://git.test.internal/pulls/1' });

    // The interrupted turn's partial work is gone: a fresh clone, and the model saw only the prompt.
    expect(remote.changedFiles('main', (body.source as { ref: string }).ref)).toEqual(['guides/new.mdx']);
    expect(model2.requests[0]!.body.messages.filter((m) => m.role !== 'system')).toEqual([{ role: 'user', content: 'Add a page' }]);
    expect(t2.logs.join('')).toContain('interrupted by a restart');
    expect(t2.ctx.stores.agentJobs.get(id)!.attempts).toBe(2);
  });

  it(`fails a job interrupted ${MAX_ATTEMPTS_PER_TURN} times instead of running it forever`, async () => {
    const remote = createBareRemote();
    cleanups.push(() => remote.remove());
    const t = createAgentAppliance({ modelUrl: 'http://127.0.0.1:9/v1', repository: remote.bare });
    cleanups.push(() => t.close());
    const key = t.createKey();
    const created = await t.api(key).post(jobUrl()).send({ prompt: 'Anything' }).expect(201);
    const id = created.body.id as string;
    // Three processes claimed this turn and died (the state a crash loop leaves behind).
    t.ctx.db.prepare("UPDATE agent_jobs SET run_state = 'running', attempts = ? WHERE id = ?").run(MAX_ATTEMPTS_PER_TURN, id);
    await t.start();
    const job = await t.api(key).get(jobUrl(id)).expect(200);
    expect(job.body).toMatchObject({ status: 'failed', prLink: null, archivedAt: null });
    expect(t.ctx.stores.agentJobs.get(id)!.error).toBe(`interrupted by a restart ${MAX_ATTEMPTS_PER_TURN} times; giving up on this instruction`);
  });
});
