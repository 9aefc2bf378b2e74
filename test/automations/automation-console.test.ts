import { describe, expect, it } from 'vitest';
import { finish, toolCall } from '../agent/helpers/fake-model.js';
import { pollUntilDone } from '../agent/helpers/agent-appliance.js';
import { TEST_ORG, TEST_PROJECT } from '../helpers/appliance.js';
import { consoleClient, formAction } from '../console/helpers.js';
import { automationRig } from './helpers.js';

const setup = automationRig();
const base = `/console/orgs/${TEST_ORG}/projects/${TEST_PROJECT}`;

describe('automations in the console', { timeout: 90_000 }, () => {
  it('lists the automations with their last runs; "Run now" starts a run, audited, and the page shows its pull request and what changed', async () => {
    const { t, key } = await setup(
      (url) => [
        { id: 'code-sync', name: 'Update from code', predefined: 'update-from-code', trigger: { type: 'schedule', cron: '0 6 * * 1' }, contextRepositories: [{ url }] },
        { id: 'paused', name: 'Paused one', instruction: 'x', trigger: { type: 'api' }, enabled: false },
      ],
      [toolCall('write_file', { path: 'guides/limits.mdx', content: '---\ntitle: Limits\n---\n\nUp to 10 users.\n' }), finish('Documented the limits.')],
    );
    const c = consoleClient(t.admin);
    await c.signIn(key);
    const before = (await c.page(base)).text;
    expect(before).toContain('Update from code');
    expect(before).toContain('schedule (0 6 * * 1)');
    expect(before).toContain('No runs yet');
    // A disabled automation offers no button.
    expect(formAction(before, 'Run Paused one now')).toBeUndefined();

    const pressed = await c.press(base, 'Run Update from code now');
    expect(pressed.status).toBe(303);
    expect(pressed.headers.location).toBe(`${base}?notice=automation-started`);
    const [run] = t.ctx.stores.automationRuns.recent(TEST_PROJECT, 'code-sync');
    expect(run).toMatchObject({ trigger: 'console', actor: expect.any(String) });
    await pollUntilDone(t, key, run!.jobId!);

    const after = (await c.page(base)).text;
    expect(after).toContain(`<code>${run!.id}</code>`);
    expect(after).toContain('http://git.test.internal/pulls/1');
    expect(after).toMatch(/2 commits in http:\/\/127\.0\.0\.1:\d+\/acme\/api\.git \(first run: the latest ones\)/);
    expect(after).toContain(`${base}/agent/${run!.jobId}`);

    // The audit log names the run and its job.
    const [entry] = t.ctx.stores.consoleAudit.page({ orgId: TEST_ORG, limit: 1, offset: 0 });
    expect(entry).toMatchObject({ action: 'automation.run', target: run!.id, detail: { projectId: TEST_PROJECT, automationId: 'code-sync', jobId: run!.jobId } });
    expect((await c.page(`/console/orgs/${TEST_ORG}/audit`)).text).toMatch(/ran automation code-sync of project a{24} now/);

    // The read role sees the runs, not the button.
    const reader = consoleClient(t.admin);
    await reader.signIn(t.createKey(TEST_ORG, { scopes: ['read'] }));
    const ro = (await reader.page(base)).text;
    expect(ro).toContain(run!.id);
    expect(formAction(ro, 'Run Update from code now')).toBeUndefined();
  });
});
