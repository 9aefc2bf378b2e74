import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { finish, toolCall } from '../agent/helpers/fake-model.js';
import { jobUrl, pollUntilDone } from '../agent/helpers/agent-appliance.js';
import { TEST_PROJECT } from '../helpers/appliance.js';
import { automationRig, cronJob, promptOf, triggerUrl } from './helpers.js';

const setup = automationRig();

/** A writer's commit on the docs repository's main branch. */
function writerCommit(bare: string, file: string, content: string, subject: string) {
  const work = fs.mkdtempSync(path.join(path.dirname(bare), 'writer-'));
  const git = (args: string[], cwd = work) =>
    execFileSync('git', args, { cwd, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'Wren Writer', GIT_AUTHOR_EMAIL: 'wren@docs.test', GIT_COMMITTER_NAME: 'Wren Writer', GIT_COMMITTER_EMAIL: 'wren@docs.test' } });
  git(['clone', '--quiet', bare, work], path.dirname(bare));
  fs.writeFileSync(path.join(work, file), content);
  git(['commit', '--quiet', '-am', subject]);
  git(['push', '--quiet', 'origin', 'HEAD:main']);
  fs.rmSync(work, { recursive: true, force: true });
}

describe('automations that follow the project’s own repository', { timeout: 90_000 }, () => {
  it('follows the project’s own repository: the pages writers changed since the last completed run, nothing when none did', async () => {
    const { t, key, model, remote } = await setup(
      () => [{ id: 'translate', name: 'Translate changed pages', predefined: 'translate-changes', trigger: { type: 'api' } }],
      [finish('Translated.'), finish('Translated again.')],
    );
    const first = await t.api(key).post(triggerUrl('translate')).expect(202);
    await pollUntilDone(t, key, first.body.jobId);
    expect(promptOf(model, 0)).toMatch(/Initial docs \(Seed\)/);

    // The agent's own branch is not main: nothing a writer changed, nothing to translate.
    const idle = await t.api(key).post(triggerUrl('translate')).expect(202);
    expect((await t.api(key).get(jobUrl(idle.body.jobId)).expect(200)).body).toMatchObject({ status: 'completed', prLink: null });

    const page = fs.readdirSync(path.join(import.meta.dirname, '..', 'fixtures', 'agent', 'docs-repo')).find((f) => f.endsWith('.mdx'))!;
    writerCommit(remote.bare, page, '---\ntitle: Changed\n---\n\nNew words.\n', 'Rewrite the start page');
    const third = await t.api(key).post(triggerUrl('translate')).expect(202);
    await pollUntilDone(t, key, third.body.jobId);
    const prompt = promptOf(model, 1);
    expect(prompt).toMatch(/Rewrite the start page \(Wren Writer\)/);
    expect(prompt).toContain(page);
    expect(prompt).not.toMatch(/Initial docs/);
  });

  it('a push to the project’s own branch starts a run that lists the writers’ commits', async () => {
    const { t, key, model, remote, host } = await setup(
      () => [{ id: 'docs-push', name: 'After each docs push', instruction: 'Check the changed pages for style.', trigger: { type: 'push' } }],
      [toolCall('write_file', { path: 'guides/style.mdx', content: '---\ntitle: Style\n---\n\nShort sentences.\n' }), finish('Fixed the style.')],
    );
    const poll = cronJob(t, 'automations-push-poll');
    expect(await poll.run()).toEqual({ checked: 1, triggered: 0 });
    writerCommit(remote.bare, 'index.mdx', '---\ntitle: Home\n---\n\nA very long and winding sentence.\n', 'Reword the home page');
    expect(await poll.run()).toEqual({ checked: 1, triggered: 1 });
    const [run] = t.ctx.stores.automationRuns.recent(TEST_PROJECT, 'docs-push');
    expect((await pollUntilDone(t, key, run!.jobId!)).body).toMatchObject({ status: 'completed', prLink: 'http://git.test.internal/pulls/1' });
    expect(promptOf(model, 0)).toMatch(/Reword the home page \(Wren Writer\)/);
    expect(host.pullRequests()).toHaveLength(1);

    // The run's pull request is merged (main fast-forwards to its branch): a push of the agent's own commits only.
    const branch = run!.ref!;
    execFileSync('git', ['update-ref', 'refs/heads/main', `refs/heads/${branch}`], { cwd: remote.bare });
    const requests = model.requests.length;
    expect(await poll.run()).toEqual({ checked: 1, triggered: 1 });
    const [after] = t.ctx.stores.automationRuns.recent(TEST_PROJECT, 'docs-push');
    expect(after).toMatchObject({ status: 'completed', prLink: null, changes: expect.stringMatching(/nothing changed/) });
    expect(model.requests.length).toBe(requests);
  });
});
