import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestAppliance, TEST_ORG, writeTinyDocs, type TestAppliance } from '../helpers/appliance.js';
import { runCli } from '../helpers/cli.js';
import type { PublishFeature } from '../../app/publish/feature.js';
import { createDocsRepo, page } from './helpers.js';

const PROJECT = '444444444444444444444444';
const GIT = '555555555555555555555555';
const publishOf = (t: TestAppliance) => t.features.find((f) => f.name === 'publish') as PublishFeature;

const open: TestAppliance[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('rollback from the CLI, restart, and the branch poll', { timeout: 120_000 }, () => {
  it('rolls a project back with `sites rollback --project`, recorded like a publish; SIGHUP serves it; a restart keeps it', async () => {
    const repo = createDocsRepo();
    dirs.push(repo.root);
    const source = writeTinyDocs(path.join(repo.root, 'dir'));
    const stateDir = path.join(repo.root, 'state');
    const config = { renderer: { threads: 1 }, projects: [{ id: PROJECT, orgId: TEST_ORG, name: 'Docs', domain: 'docs.cli.internal', sourceDir: source }] };
    const t = createTestAppliance({ stateDir, sourceDir: source, config });
    open.push(t);
    await t.start();
    const service = publishOf(t).service;
    const first = service.publish(PROJECT, 'cli');
    await service.idle();
    fs.writeFileSync(path.join(source, 'index.mdx'), '---\ntitle: Home\n---\n\nThe second edition.\n');
    service.publish(PROJECT, 'cli');
    await service.idle();
    expect((await page(t, 'docs.cli.internal').expect(200)).text).toContain('The second edition');

    const configFile = path.join(repo.root, 'config.json');
    fs.writeFileSync(configFile, JSON.stringify(t.config));
    const listed = await runCli(['sites', 'list', '--project', PROJECT, '--json', '--config', configFile]);
    expect(listed.code, listed.err).toBe(0);
    const versions = (JSON.parse(listed.out) as { versions: Array<{ version: string; active: boolean }> }).versions;
    expect(versions).toHaveLength(2);
    const older = service.status(first.id)!.version!;
    const rolled = await runCli(['sites', 'rollback', older, '--project', PROJECT, '--config', configFile]);
    expect(rolled.code, rolled.err).toBe(0);
    expect(rolled.out).toContain(`now serves ${older}`);
    expect((await runCli(['sites', 'rollback', 'nope', '--project', PROJECT, '--config', configFile])).code).toBe(1);

    for (const f of t.features) await f.reload?.(t.config);
    expect((await page(t, 'docs.cli.internal').expect(200)).text).toContain('Welcome to the tiny docs');
    expect(service.history(PROJECT)[0]).toMatchObject({ kind: 'rollback', trigger: 'cli', status: 'success', version: older });

    await t.close();
    open.length = 0;
    const again = createTestAppliance({ stateDir, sourceDir: source, config });
    open.push(again);
    await again.start();
    expect((await page(again, 'docs.cli.internal').expect(200)).text).toContain('Welcome to the tiny docs');
  });

  it('publishes when the polled branch head moves, once per head', async () => {
    const repo = createDocsRepo();
    dirs.push(repo.root);
    const t = createTestAppliance({
      config: {
        renderer: { threads: 1 },
        projects: [{ id: GIT, orgId: TEST_ORG, name: 'Polled', domain: 'docs.poll.internal', sourceDir: repo.root, repository: repo.bare, branch: 'main', publish: { source: 'git', docsPath: 'docs' } }],
      },
    });
    open.push(t);
    await t.start();
    const feature = publishOf(t);
    const poll = feature.cron!.find((c) => c.name === 'publish-poll')!;
    expect(await poll.run()).toEqual({ checked: 1, triggered: 1 });
    await feature.service.idle();
    expect((await page(t, 'docs.poll.internal').expect(200)).text).toContain('Welcome to the tiny docs');
    expect(await poll.run()).toEqual({ checked: 1, triggered: 0 });
    repo.commit({ 'docs/index.mdx': '---\ntitle: Home\n---\n\nPolled change.\n' }, 'Change for the poll');
    expect(await poll.run()).toEqual({ checked: 1, triggered: 1 });
    await feature.service.idle();
    expect((await page(t, 'docs.poll.internal').expect(200)).text).toContain('Polled change');
    expect(feature.service.history(GIT)[0]).toMatchObject({ trigger: 'poll', status: 'success', commitSha: repo.head() });
  });

  it('refuses a docs path that a branch turned into a link out of the repository; the site stays', async () => {
    const repo = createDocsRepo();
    dirs.push(repo.root);
    const t = createTestAppliance({
      config: {
        renderer: { threads: 1 },
        projects: [{ id: GIT, orgId: TEST_ORG, name: 'Linked', domain: 'docs.link.internal', sourceDir: repo.root, repository: repo.bare, branch: 'main', publish: { source: 'git', docsPath: 'docs' } }],
      },
    });
    open.push(t);
    await t.start();
    const service = publishOf(t).service;
    service.publish(GIT, 'api');
    await service.idle();
    const outside = writeTinyDocs(path.join(repo.root, 'outside'));
    repo.link('docs', outside, 'Point the docs at a folder outside the repository');
    const record = service.publish(GIT, 'api');
    await service.idle();
    expect(service.status(record.id)).toMatchObject({ status: 'failure', summary: expect.stringMatching(/leads outside the repository/) });
    expect((await page(t, 'docs.link.internal').expect(200)).text).toContain('Welcome to the tiny docs');
  });
});
