import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentCommand } from '../../app/commands/agent.js';
import { createBareRemote } from './helpers/git-remote.js';
import { createAgentAppliance, jobUrl } from './helpers/agent-appliance.js';
import { runCli } from '../helpers/cli.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const cli = (argv: string[], cwd: string) => runCli(argv, { cwd, run: agentCommand.run });

describe('docs-appliance agent', () => {
  it('archives a completed or failed job beside the running appliance; refuses an active one', async () => {
    const remote = createBareRemote();
    cleanups.push(() => remote.remove());
    const t = createAgentAppliance({ modelUrl: 'http://127.0.0.1:9/v1', repository: remote.bare });
    cleanups.push(() => t.close());
    const key = t.createKey();
    const configFile = path.join(t.stateDir, 'cli-config.json');
    fs.writeFileSync(configFile, JSON.stringify({ stateDir: t.stateDir }));
    const a = (await t.api(key).post(jobUrl()).send({ prompt: 'one' }).expect(201)).body.id as string;
    const b = (await t.api(key).post(jobUrl()).send({ prompt: 'two' }).expect(201)).body.id as string;

    const active = await cli(['archive', a, '--config', configFile], t.stateDir);
    expect(active.code).toBe(1);
    expect(active.err).toContain('is active');

    t.ctx.stores.agentJobs.claimNext();
    t.ctx.stores.agentJobs.claimNext();
    t.ctx.stores.agentJobs.fail(a, 'the model endpoint answered 500');
    t.ctx.stores.agentJobs.complete(b, null);

    const listed = await cli(['list', '--config', configFile], t.stateDir);
    expect(listed.code).toBe(0);
    expect(listed.out).toContain(`${a}  failed`);
    expect(listed.out).toContain('reason: the model endpoint answered 500');

    const done = await cli(['archive', a, '--config', configFile], t.stateDir);
    expect(done).toMatchObject({ code: 0, out: `Archived ${a} (was failed).\n` });
    const again = await cli(['archive', a, '--config', configFile], t.stateDir);
    expect(again.code).toBe(0);
    expect(again.out).toContain('already archived');

    const r = await t.api(key).get(jobUrl(a)).expect(200);
    expect(r.body).toMatchObject({ status: 'archived', archivedAt: expect.any(String) });
    expect((await t.api(key).get(jobUrl(b)).expect(200)).body).toMatchObject({ status: 'completed', archivedAt: null });

    const shown = await cli(['show', b, '--json', '--config', configFile], t.stateDir);
    expect(JSON.parse(shown.out)).toMatchObject({ id: b, status: 'completed' });
    expect((await cli(['archive', 'aj_nope', '--config', configFile], t.stateDir)).code).toBe(1);
    await expect(cli(['archive', '--config', configFile], t.stateDir)).rejects.toThrow('needs a job id');
  });
});
