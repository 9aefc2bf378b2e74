import { afterEach, describe, expect, test } from 'vitest';
import { buildAdminApp } from '../../app/admin-app.js';
import { createConsoleFeature } from '../../app/console/feature.js';
import type { ConsolePublishService, PublishRecord } from '../../app/console/services.js';
import type { StaticExportFeature } from '../../app/static-export/feature.js';
import type { AuditEntry } from '../../data/stores/console-audit.js';
import { createTestAppliance, OTHER_ORG, TEST_ORG, TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';
import { runCli } from '../helpers/cli.js';
import { cliConfigFor, consoleClient } from './helpers.js';

let a: TestAppliance;
afterEach(async () => {
  await a?.close();
});

/** A stand-in for the publish service of issue 19: records what the console asked of it. */
function fakePublish() {
  const calls: string[] = [];
  const history: PublishRecord[] = [
    { id: 'pub_2', version: 'v2', commit: 'b'.repeat(40), status: 'succeeded', startedAt: '2026-11-02T00:00:00.000Z', finishedAt: '2026-11-02T00:01:00.000Z', error: null, current: true },
    { id: 'pub_1', version: 'v1', commit: 'a'.repeat(40), status: 'succeeded', startedAt: '2026-11-01T00:00:00.000Z', finishedAt: '2026-11-01T00:01:00.000Z', error: null, current: false },
  ];
  const service: ConsolePublishService = {
    history: (_p, limit) => history.slice(0, limit),
    publishNow: async (p, actor) => {
      calls.push(`publish ${p.id} by ${actor}`);
      return { id: 'pub_3' };
    },
    rollBack: async (p, to, actor) => {
      calls.push(`rollback ${p.id} to ${to} by ${actor}`);
      return { id: 'pub_4' };
    },
  };
  return { service, calls };
}

function withPublish(t: TestAppliance, publish: ConsolePublishService) {
  const exports = t.features.find((f) => f.name === 'static-export') as StaticExportFeature;
  return buildAdminApp(t.ctx, [...t.features.filter((f) => f.name !== 'console'), createConsoleFeature(t.ctx, { exports, publish })]);
}

describe('console audit log', () => {
  test('every change made in the console leaves an entry (who, what, when) that the CLI lists', async () => {
    a = createTestAppliance();
    const { service, calls } = fakePublish();
    const app = withPublish(a, service);
    const adminKey = a.ctx.stores.adminKeys.create({ orgId: TEST_ORG, label: 'operator' });
    const c = consoleClient(app);
    await c.signIn(adminKey.key);
    const who = `key ${adminKey.record.id} (${adminKey.record.prefix}…)`;
    const base = `/console/orgs/${TEST_ORG}`;

    await c.page(`${base}/keys`);
    const created = await c.post(`${base}/keys`, { scopes: ['read'], label: 'ci', expiresInDays: '7' });
    expect(created.status).toBe(201);
    const newKeyId = /Key <code>(key_[0-9a-f]+)<\/code>/.exec(created.text)![1]!;
    expect((await c.post(`${base}/keys/${newKeyId}/revoke`)).status).toBe(303);

    await c.page(`${base}/projects/${TEST_PROJECT}`);
    expect((await c.post(`${base}/projects/${TEST_PROJECT}/exports`)).status).toBe(303);
    const exportId = a.ctx.stores.exportJobs.listForProject(TEST_PROJECT, 10)[0]!.id;

    a.ctx.stores.agentJobs.create({ id: 'aj_done', projectId: TEST_PROJECT, orgId: TEST_ORG, repository: 'r', ref: 'b', model: 'm', prompt: 'fix typos' });
    a.ctx.stores.agentJobs.claimNext();
    a.ctx.stores.agentJobs.complete('aj_done', 'https://git.internal/r/pulls/1');
    expect((await c.post(`${base}/projects/${TEST_PROJECT}/agent/aj_done/archive`)).status).toBe(303);
    expect(a.ctx.stores.agentJobs.get('aj_done')!.status).toBe('archived');

    expect((await c.post(`${base}/projects/${TEST_PROJECT}/publish`)).status).toBe(303);
    expect((await c.post(`${base}/projects/${TEST_PROJECT}/publishes/pub_1/rollback`)).status).toBe(303);
    expect(calls).toEqual([`publish ${TEST_PROJECT} by ${who}`, `rollback ${TEST_PROJECT} to pub_1 by ${who}`]);
    expect((await c.post('/console/sign-out')).status).toBe(303);

    const r = await runCli(['audit', '--org', TEST_ORG, '--json', '--config', cliConfigFor(a)]);
    expect(r.code).toBe(0);
    const entries = (JSON.parse(r.out) as AuditEntry[]).reverse();
    expect(entries.map((e) => [e.action, e.target])).toEqual([
      ['session.sign-in', adminKey.record.id],
      ['key.create', newKeyId],
      ['key.revoke', newKeyId],
      ['export.start', exportId],
      ['agent.archive', 'aj_done'],
      ['publish.start', 'pub_3'],
      ['publish.rollback', 'pub_4'],
      ['session.sign-out', adminKey.record.id],
    ]);
    for (const e of entries) {
      expect(e.actor).toBe(who);
      expect(e.orgId).toBe(TEST_ORG);
      expect(Date.parse(e.at)).toBe(a.clock.now().getTime());
    }
    expect(entries[1]!.detail).toMatchObject({ scopes: ['read'], label: 'ci' });
    // The key shown once is never in the log.
    const plain = /value="(mint_[0-9A-Za-z]+)"/.exec(created.text)![1]!;
    expect(r.out).not.toContain(plain);
    expect(a.logs.join('')).not.toContain(plain);

    // The text form, and the same entries in the console's own page.
    const text = await runCli(['audit', '--org', TEST_ORG, '--config', cliConfigFor(a)]);
    expect(text.out.split('\n').filter(Boolean)).toHaveLength(8);
    expect(text.out).toContain(`${TEST_ORG}  ${who}  key.create  ${newKeyId}`);
    const c2 = consoleClient(app);
    await c2.signIn(a.createKey(TEST_ORG));
    const page = await c2.page(`${base}/audit`);
    expect(page.text).toContain('<code>publish.rollback</code>');
    expect(page.text).toContain(who);
    // --limit keeps the newest entries; a bad limit is a usage error.
    const two = JSON.parse((await runCli(['audit', '--org', TEST_ORG, '--limit', '2', '--json', '--config', cliConfigFor(a)])).out) as AuditEntry[];
    expect(two.map((e) => e.action)).toEqual(['session.sign-in', 'session.sign-out']);
    const bad = await runCli(['audit', '--limit', '0', '--config', cliConfigFor(a)]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--limit takes a whole number');
    // Another organization's log is empty, and not readable from here.
    expect((await runCli(['audit', '--org', OTHER_ORG, '--config', cliConfigFor(a)])).out).toBe('No console changes recorded.\n');
    expect((await c2.page(`/console/orgs/${OTHER_ORG}/audit`)).status).toBe(404);
  });

  test('the read role cannot publish or roll back', async () => {
    a = createTestAppliance();
    const { service, calls } = fakePublish();
    const app = withPublish(a, service);
    const c = consoleClient(app);
    await c.signIn(a.createKey(TEST_ORG, { scopes: ['read'] }));
    const page = await c.page(`/console/orgs/${TEST_ORG}/projects/${TEST_PROJECT}`);
    expect(page.text).toContain('Publish history');
    expect(page.text).not.toContain('Publish now');
    expect((await c.post(`/console/orgs/${TEST_ORG}/projects/${TEST_PROJECT}/publish`)).status).toBe(403);
    expect((await c.post(`/console/orgs/${TEST_ORG}/projects/${TEST_PROJECT}/publishes/pub_1/rollback`)).status).toBe(403);
    expect(calls).toEqual([]);
  });
});
