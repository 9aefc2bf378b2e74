import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestAppliance } from '../helpers/appliance.js';
import { startFakeGitHost } from './helpers/fake-git-host.js';
import { finish, hang, raw, say, startFakeModel, toolCall, type FakeModel } from './helpers/fake-model.js';
import { createBareRemote, type BareRemote } from './helpers/git-remote.js';
import { createAgentAppliance, GIT_TOKEN, jobUrl, MODEL_KEY, pollUntilDone } from './helpers/agent-appliance.js';

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

describe('agent runs', () => {
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
  });
});
