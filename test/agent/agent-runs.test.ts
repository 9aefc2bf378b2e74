import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestAppliance } from '../helpers/appliance.js';
import { startFakeGitHost } from './helpers/fake-git-host.js';
import { finish, hang, held, raw, say, startFakeModel, toolCall, type FakeModel } from './helpers/fake-model.js';
import { createBareRemote } from './helpers/git-remote.js';
import { startGitHttpServer } from './helpers/git-http-server.js';
import { createAgentAppliance, GIT_TOKEN, jobUrl, MODEL_KEY, pollUntilDone } from './helpers/agent-appliance.js';

// Each run starts a worker thread and clones; on a loaded machine that takes seconds.
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(script: Parameters<typeof startFakeModel>[0], opts: { agent?: Record<string, unknown>; gitHostFail?: { status: number; body: string } } = {}) {
  const remote = createBareRemote();
  cleanups.push(() => remote.remove());
  const model = await startFakeModel(script);
  cleanups.push(() => model.close());
  const host = await startFakeGitHost(opts.gitHostFail ? { failWith: opts.gitHostFail } : {});
  cleanups.push(() => host.close());
  const t = createAgentAppliance({ modelUrl: model.baseUrl, repository: remote.bare, gitHostUrl: host.apiUrl, ...(opts.agent ? { agent: opts.agent } : {}) });
  cleanups.push(() => t.close());
  await t.start();
  const key = t.createKey();
  return { remote, model, host, t, key };
}

const create = async (t: TestAppliance, key: string, prompt: string) => {
  const r = await t.api(key).post(jobUrl()).send({ prompt }).expect(201);
  return r.body as { id: string; status: string; source: { repository: string; ref: string }; prLink: string | null };
};

describe('agent runs', { timeout: 60_000 }, () => {
  it('edits two files, commits, pushes the job branch and opens a pull request', async () => {
    const { remote, model, host, t, key } = await setup([
      toolCall('list_files', {}),
      toolCall('read_file', { path: 'guides/install.mdx' }),
      toolCall('write_file', { path: 'guides/install.mdx', content: '---\ntitle: Install\n---\n\n## Install\n\nRun the installer.\n' }),
      toolCall('write_file', { path: 'guides/upgrade.mdx', content: '---\ntitle: Upgrade\n---\n\nUpgrade in place.\n' }),
      finish('Fixed a typo in the install guide and added an upgrade page.'),
    ]);
    const job = await create(t, key, 'Fix the typo in the install guide and add an upgrade page');
    expect(job.status).toBe('active');
    expect(job.prLink).toBeNull();
    expect(job.source.repository).toBe(remote.bare);
    expect(job.source.ref).toMatch(/^docs-agent\/[0-9a-f]{20}$/);

    const { body, polls } = await pollUntilDone(t, key, job.id);
    expect(t.ctx.stores.agentJobs.get(job.id)!.error).toBeNull();
    expect(body).toMatchObject({ id: job.id, status: 'completed', prLink: 'http://git.test.internal/pulls/1', archivedAt: null, model: 'test-model' });
    for (const p of polls.slice(0, -1)) expect(p.prLink).toBeNull();

    // The branch on the remote holds exactly the two changes, authored by the agent.
    expect(remote.branches()).toEqual([job.source.ref, 'main'].sort());
    expect(remote.changedFiles('main', job.source.ref)).toEqual(['guides/install.mdx', 'guides/upgrade.mdx']);
    expect(remote.show(job.source.ref, 'guides/install.mdx')).toContain('Run the installer.');
    const log = remote.log(job.source.ref);
    expect(log).toContain('docs-appliance agent <agent@docs-appliance.local>');
    expect(log).toContain('docs: Fix the typo in the install guide and add an upgrade page');
    expect(log).toContain(`Agent-Job: ${job.id}`);

    // One pull request, Gitea shape, with the token in the header, from the job branch to main.
    const [pr] = host.pullRequests();
    expect(host.pullRequests()).toHaveLength(1);
    expect(pr!.url).toBe('/api/v1/repos/acme/docs/pulls');
    expect(pr!.headers.authorization).toBe(`token ${GIT_TOKEN}`);
    expect(pr!.body).toMatchObject({ head: job.source.ref, base: 'main' });

    // The model got the tools, the prompt and the key.
    const first = model.requests[0]!;
    expect(first.headers.authorization).toBe(`Bearer ${MODEL_KEY}`);
    expect(first.body.model).toBe('test-model');
    expect(first.body.tool_choice).toBe('auto');
    expect(first.body.tools.map((x) => x.function.name).sort()).toEqual(['delete_file', 'finish', 'list_files', 'read_file', 'search_files', 'write_file']);
    expect(first.body.messages.at(-1)).toEqual({ role: 'user', content: 'Fix the typo in the install guide and add an upgrade page' });
    // Tool results went back to the model (read_file returned the file).
    expect(JSON.stringify(model.requests[2]!.body.messages)).toContain('Run the instaler.');

    // No secret in the log; the working copy is gone.
    const logs = t.logs.join('');
    expect(logs).not.toContain(GIT_TOKEN);
    expect(logs).not.toContain(MODEL_KEY);
    expect(logs).toContain('agent job turn completed');
    expect(fs.existsSync(path.join(t.stateDir, 'agent', 'work', job.id))).toBe(false);
    const metrics = await t.api().get('/metrics').expect(200);
    expect(metrics.text).toContain('docs_appliance_agent_turns_total{outcome="pull_request"} 1');
    expect(metrics.text).toContain('docs_appliance_agent_running 0');
  });

  it('completes with prLink null when no file changed, and pushes nothing', async () => {
    const { remote, host, t, key } = await setup([toolCall('search_files', { query: 'installer' }), say('The docs already say that; nothing to change.')]);
    const job = await create(t, key, 'Make sure the install guide mentions the installer');
    const { body } = await pollUntilDone(t, key, job.id);
    expect(body).toMatchObject({ status: 'completed', prLink: null, archivedAt: null });
    expect(remote.branches()).toEqual(['main']);
    expect(host.requests).toHaveLength(0);
  });

  it('fails with a reason when the model answers garbage, after bounded retries', async () => {
    const { model, remote, t, key } = await setup([raw(200, '<html>oops</html>'), raw(200, '{"choices": []}'), raw(502, 'bad gateway')]);
    const job = await create(t, key, 'Anything');
    const { body } = await pollUntilDone(t, key, job.id);
    expect(body).toMatchObject({ status: 'failed', prLink: null });
    const reason = t.ctx.stores.agentJobs.get(job.id)!.error!;
    expect(reason).toContain('the model endpoint answered 502');
    expect(reason).toContain('gave up after 3 attempts');
    expect(model.requests).toHaveLength(3);
    expect(remote.branches()).toEqual(['main']);
    // The reason is in the log as well, and the conversation keeps a note of the failure.
    expect(t.logs.join('')).toContain('agent job turn failed');
    const notes = t.ctx.stores.agentJobs.conversation(job.id, 1);
    expect(notes.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(String(notes[1]!.body.content)).toContain('failed');
  });

  it('fails when the model keeps sending tool calls with invalid arguments', async () => {
    const { t, key } = await setup([toolCall('write_file', '{"path": '), toolCall('write_file', '[1,2]'), toolCall('no_such_tool', {})]);
    const job = await create(t, key, 'Anything');
    const { body } = await pollUntilDone(t, key, job.id);
    expect(body.status).toBe('failed');
    expect(t.ctx.stores.agentJobs.get(job.id)!.error).toContain('invalid tool calls 3 times in a row');
  });

  it('fails at the step limit when the model never finishes', async () => {
    const { model, remote, t, key } = await setup([toolCall('write_file', { path: 'a.mdx', content: 'a' }), toolCall('list_files', {}), toolCall('list_files', {})], { agent: { maxSteps: 2 } });
    const job = await create(t, key, 'Anything');
    const { body } = await pollUntilDone(t, key, job.id);
    expect(body).toMatchObject({ status: 'failed', prLink: null });
    expect(t.ctx.stores.agentJobs.get(job.id)!.error).toBe('step limit reached: the model did not finish within 2 steps (agent.maxSteps)');
    expect(model.requests).toHaveLength(2);
    // The file written before the limit was never committed or pushed.
    expect(remote.branches()).toEqual(['main']);
  });

  it('fails at the wall-clock limit when the model does not answer; polls see active with prLink null until then', async () => {
    const { model, t, key } = await setup([hang()], { agent: { timeoutSeconds: 4 } });
    const job = await create(t, key, 'Anything');
    const started = Date.now();
    const { body, polls } = await pollUntilDone(t, key, job.id);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3500);
    expect(polls.length).toBeGreaterThan(3);
    for (const p of polls.slice(0, -1)) expect(p).toMatchObject({ status: 'active', prLink: null, archivedAt: null });
    expect(body.status).toBe('failed');
    expect(t.ctx.stores.agentJobs.get(job.id)!.error).toBe('wall-clock limit of 4 s reached (agent.timeoutSeconds)');
    expect(model.requests).toHaveLength(1);
  });

  it('refuses tool calls that leave the repository; nothing outside is touched', async () => {
    const outside = path.join(path.dirname(path.dirname(path.dirname(process.cwd()))), `agent-escape-${process.pid}.txt`);
    const { model, remote, t, key } = await setup([
      toolCall('read_file', { path: '../../../../../../etc/passwd' }),
      toolCall('write_file', { path: outside, content: 'pwned' }),
      toolCall('write_file', { path: '.git/hooks/pre-commit', content: '#!/bin/sh\ntouch /tmp/pwned\n' }),
      toolCall('write_file', { path: 'guides/../../escape.txt', content: 'pwned' }),
      finish('Could not do it.'),
    ]);
    const job = await create(t, key, 'Escape');
    const { body } = await pollUntilDone(t, key, job.id);
    expect(body).toMatchObject({ status: 'completed', prLink: null });
    const results = model.requests.at(-1)!.body.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    expect(results).toHaveLength(4);
    for (const r of results) expect(r).toMatch(/^error: /);
    expect(results[0]).toContain('leaves the repository');
    expect(results[1]).toContain('not a path relative to the repository root');
    expect(results[2]).toContain('.git');
    expect(fs.existsSync(outside)).toBe(false);
    expect(remote.branches()).toEqual(['main']);
    expect(t.logs.join('')).toContain('agent: tool call refused');
  });

  it('fails with the reason when the push is rejected, and opens no pull request', async () => {
    const { remote, host, t, key } = await setup([toolCall('write_file', { path: 'index.mdx', content: 'changed\n' }), finish('Changed the home page.')]);
    remote.rejectPushes();
    const job = await create(t, key, 'Change the home page');
    const { body } = await pollUntilDone(t, key, job.id);
    expect(body).toMatchObject({ status: 'failed', prLink: null });
    const reason = t.ctx.stores.agentJobs.get(job.id)!.error!;
    expect(reason).toContain(`the push of ${job.source.ref} was rejected`);
    expect(reason).toContain('pushes to this repository are not allowed');
    expect(remote.branches()).toEqual(['main']);
    expect(host.requests).toHaveLength(0);
  });

  it('fails with the reason when the Git host refuses the pull request', async () => {
    const { t, key } = await setup([toolCall('write_file', { path: 'index.mdx', content: 'changed\n' }), finish('done')], { gitHostFail: { status: 403, body: '{"message":"token lacks scope"}' } });
    const job = await create(t, key, 'Change the home page');
    const { body } = await pollUntilDone(t, key, job.id);
    expect(body).toMatchObject({ status: 'failed', prLink: null });
    expect(t.ctx.stores.agentJobs.get(job.id)!.error).toContain('Gitea answered 403 to the pull request: {"message":"token lacks scope"}');
  });

  it('continues a job with a follow-up: same branch, same conversation, same pull request', async () => {
    const { remote, model, host, t, key } = await setup([toolCall('write_file', { path: 'guides/install.mdx', content: 'one\n' }), finish('first')]);
    const job = await create(t, key, 'First instruction');
    const first = await pollUntilDone(t, key, job.id);
    expect(first.body).toMatchObject({ status: 'completed', prLink: 'http://git.test.internal/pulls/1' });

    model.push(toolCall('read_file', { path: 'guides/install.mdx' }), toolCall('write_file', { path: 'index.mdx', content: 'two\n' }), finish('second'));
    const r = await t.api(key).post(`${jobUrl(job.id)}/message`).send({ prompt: 'Second instruction' }).expect(200);
    expect(r.body).toMatchObject({ id: job.id, status: 'active', prLink: null, source: job.source });
    const second = await pollUntilDone(t, key, job.id);
    expect(second.body).toMatchObject({ status: 'completed', prLink: 'http://git.test.internal/pulls/1' });

    // The branch moved on from the first commit (it read the first turn's edit back).
    expect(remote.commitCount(job.source.ref)).toBe(3);
    expect(remote.show(job.source.ref, 'index.mdx')).toBe('two\n');
    expect(remote.show(job.source.ref, 'guides/install.mdx')).toBe('one\n');
    const readBack = model.requests.find((q) => q.body.messages.at(-1)?.role === 'tool' && String(q.body.messages.at(-1)?.content) === 'one\n');
    expect(readBack).toBeDefined();
    // The model saw the first turn in the conversation.
    const firstOfSecond = model.requests[2]!.body.messages.map((m) => m.content);
    expect(firstOfSecond).toContain('First instruction');
    expect(firstOfSecond.at(-1)).toBe('Second instruction');
    // No second pull request: the push updated the first.
    expect(host.pullRequests()).toHaveLength(1);
  });

  it('runs up to agent.concurrency jobs at once; the rest wait in the queue as active', async () => {
    // The first two answers are held until checked: both runs are surely in flight then.
    const slow = () => held(say('Nothing to change.'));
    const { model, t, key } = await setup([slow(), slow(), say('Nothing to change.')], { agent: { concurrency: 2 } });
    const ids: string[] = [];
    for (const p of ['a', 'b', 'c']) ids.push((await create(t, key, p)).id);
    await waitForRequests(model, 2);
    const states = ids.map((id) => t.ctx.stores.agentJobs.get(id)!.runState);
    expect(states.filter((s) => s === 'running')).toHaveLength(2);
    expect(states.filter((s) => s === 'queued')).toHaveLength(1);
    // The third waits for a slot, not for the model: it has sent nothing yet.
    expect(model.requests).toHaveLength(2);
    model.release();
    for (const id of ids) expect((await pollUntilDone(t, key, id)).body).toMatchObject({ status: 'completed', prLink: null });
    expect(model.requests).toHaveLength(3);
  });

  it('takes up a follow-up sent while the job is still active after the current instruction', async () => {
    // The first instruction's model answers only after the follow-up has arrived while it runs.
    const { model, host, t, key } = await setup([held(finish('Nothing to change for the first one.'))]);
    const job = await create(t, key, 'First');
    await waitForRequests(model, 1);
    model.push(toolCall('write_file', { path: 'index.mdx', content: 'x\n' }), finish('second done'));
    const r = await t.api(key).post(`${jobUrl(job.id)}/message`).send({ prompt: 'Second' }).expect(200);
    expect(r.body).toMatchObject({ status: 'active', prLink: null });
    expect(t.ctx.stores.agentJobs.get(job.id)).toMatchObject({ turn: 1, runState: 'running' });
    model.release();
    const { body } = await pollUntilDone(t, key, job.id);
    // The second instruction ran after the first, in the same conversation, and opened the pull request.
    expect(body).toMatchObject({ status: 'completed', prLink: 'http://git.test.internal/pulls/1' });
    expect(t.ctx.stores.agentJobs.get(job.id)).toMatchObject({ turn: 2, error: null });
    const sent = model.requests.at(-1)!.body.messages.map((m) => String(m.content));
    const [iFirst, iSecond] = [sent.indexOf('First'), sent.indexOf('Second')];
    expect(iFirst).toBeGreaterThan(0);
    expect(iSecond).toBeGreaterThan(iFirst);
    expect(host.pullRequests()).toHaveLength(1);
  });
});

async function waitForRequests(model: FakeModel, n: number) {
  const started = Date.now();
  while (model.requests.length < n) {
    if (Date.now() - started > 15_000) throw new Error(`model saw ${model.requests.length} requests, expected ${n}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}


describe('agent runs over http(s) remotes', { timeout: 60_000 }, () => {
  it('sends the Git token as a header on clone and push, never in the URL or the log', async () => {
    const remote = createBareRemote();
    cleanups.push(() => remote.remove());
    const gitHttp = await startGitHttpServer(remote.root);
    cleanups.push(() => gitHttp.close());
    const model = await startFakeModel([toolCall('write_file', { path: 'index.mdx', content: 'over http\n' }), finish('done')]);
    cleanups.push(() => model.close());
    const host = await startFakeGitHost();
    cleanups.push(() => host.close());
    const repository = gitHttp.url(remote.bare);
    const t = createAgentAppliance({ modelUrl: model.baseUrl, repository, gitHostUrl: host.apiUrl });
    cleanups.push(() => t.close());
    await t.start();
    const key = t.createKey();
    const job = await create(t, key, 'Change the home page over http');
    const { body } = await pollUntilDone(t, key, job.id);
    expect(t.ctx.stores.agentJobs.get(job.id)!.error).toBeNull();
    expect(body).toMatchObject({ status: 'completed', prLink: 'http://git.test.internal/pulls/1', source: { repository } });
    expect(remote.show(job.source.ref, 'index.mdx')).toBe('over http\n');

    // Every request of the clone and the push carried the token (Basic, Gitea's token user).
    const expected = `Basic ${Buffer.from(`oauth2:${GIT_TOKEN}`).toString('base64')}`;
    expect(gitHttp.urls.some((u) => u.includes('git-upload-pack'))).toBe(true);
    expect(gitHttp.urls.some((u) => u.includes('git-receive-pack'))).toBe(true);
    for (const a of gitHttp.authorizations) expect(a).toBe(expected);
    for (const u of gitHttp.urls) expect(u).not.toContain(GIT_TOKEN);
    const logs = t.logs.join('');
    expect(logs).not.toContain(GIT_TOKEN);
    expect(logs).not.toContain(Buffer.from(`oauth2:${GIT_TOKEN}`).toString('base64'));
  });
});
