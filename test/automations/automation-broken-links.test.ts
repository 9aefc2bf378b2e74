import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { finish, toolCall } from '../agent/helpers/fake-model.js';
import { jobUrl, pollUntilDone } from '../agent/helpers/agent-appliance.js';
import { TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';
import { automationRig, promptOf, triggerUrl } from './helpers.js';

const setup = automationRig();

async function publish(t: TestAppliance, key: string): Promise<string> {
  const { statusId } = (await t.api(key).post(`/v1/project/update/${TEST_PROJECT}`).expect(202)).body as { statusId: string };
  for (let i = 0; i < 600; i++) {
    const s = (await t.api(key).get(`/v1/project/update-status/${statusId}`).expect(200)).body as { status: string; summary: string };
    if (s.status === 'success') return statusId;
    if (s.status === 'failure') throw new Error(`publish failed: ${s.summary}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('publish did not end');
}

describe('the fix-broken-links automation', { timeout: 120_000 }, () => {
  it('works from the broken links the last export reported, and does nothing when it reported none', async () => {
    const { t, key, model, host } = await setup(
      () => [{ id: 'links', name: 'Fix broken links', predefined: 'fix-broken-links', trigger: { type: 'schedule', cron: '0 4 * * 0' } }],
      [toolCall('write_file', { path: 'guides/install.mdx', content: '---\ntitle: Install\n---\n\nSee [the intro](/guides/intro).\n' }), finish('Fixed the link.')],
    );
    fs.writeFileSync(path.join(t.sourceDir, 'index.mdx'), '---\ntitle: Home\n---\n\nRead [the setup guide](/guides/setup) first.\n');
    const published = await publish(t, key);

    const r = await t.api(key).post(triggerUrl('links')).expect(202);
    expect((await pollUntilDone(t, key, r.body.jobId)).body).toMatchObject({ status: 'completed', prLink: 'http://git.test.internal/pulls/1' });
    const prompt = promptOf(model, 0);
    expect(prompt).toContain('Fix broken links in the documentation.');
    expect(prompt).toContain(`## Broken links the last export reported (publish ${published}`);
    expect(prompt).toMatch(/- index\.mdx(:\d+)?: Link \/guides\/setup points to a page that does not exist/);
    expect(t.ctx.stores.automationRuns.get(r.body.instanceId)!.changes).toMatch(new RegExp(`1 broken link reported by publish ${published}`));

    // Fixed and published again: the report is clean, so the next run ends at once with no pull request.
    fs.writeFileSync(path.join(t.sourceDir, 'index.mdx'), '---\ntitle: Home\n---\n\nRead [the intro](/guides/intro) first.\n');
    await publish(t, key);
    const requests = model.requests.length;
    const again = await t.api(key).post(triggerUrl('links')).expect(202);
    expect((await t.api(key).get(jobUrl(again.body.jobId)).expect(200)).body).toMatchObject({ status: 'completed', prLink: null });
    expect(t.ctx.stores.agentJobs.get(again.body.jobId)!.summary).toMatch(/reported no broken links; no pull request was opened/);
    expect(model.requests.length).toBe(requests);
    expect(host.pullRequests()).toHaveLength(1);
  });
});
