import { afterEach, describe, expect, test } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import type { AuditEntry } from '../../data/stores/console-audit.js';
import { createTestAppliance, OTHER_ORG, TEST_ORG, TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';
import { runCli } from '../helpers/cli.js';
import { cliConfigFor, consoleClient, publishFromConsole, publishServiceOf } from './helpers.js';

let a: TestAppliance;
afterEach(async () => {
  await a?.close();
});

describe('console audit log', () => {
  test('every change made in the console leaves an entry (who, what, when) that the CLI lists', { timeout: 120_000 }, async () => {
    a = createTestAppliance({ config: { renderer: { threads: 1 } } });
    const app = a.admin;
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

    // Two real publishes (the publish service's lane), then a roll-back to the first by its button.
    const projectPage = `${base}/projects/${TEST_PROJECT}`;
    const first = await publishFromConsole(c, a, projectPage);
    fs.writeFileSync(path.join(a.sourceDir, 'index.mdx'), '---\ntitle: Home\n---\n\nThe second edition.\n');
    const second = await publishFromConsole(c, a, projectPage);
    expect((await c.press(projectPage, `Roll back to ${first.id}`)).status).toBe(303);
    await publishServiceOf(a).idle();
    const rollback = publishServiceOf(a).history(TEST_PROJECT, 1)[0]!;
    expect(rollback).toMatchObject({ kind: 'rollback', trigger: 'console', status: 'success', version: first.version });
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
      ['publish.start', first.id],
      ['publish.start', second.id],
      ['publish.rollback', rollback.id],
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
    expect(text.out.split('\n').filter(Boolean)).toHaveLength(9);
    expect(text.out).toContain(`${TEST_ORG}  ${who}  key.create  ${newKeyId}`);
    const c2 = consoleClient(app);
    await c2.signIn(a.createKey(TEST_ORG));
    const page = await c2.page(`${base}/audit`);
    // The page reads as sentences, each with its time; the CSV keeps the raw fields.
    expect(page.text).toMatch(new RegExp(`${who.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} rolled project [0-9a-f]{24} back to `));
    expect(page.text).toMatch(/created key key_[0-9a-f]+ \(&#34;ci&#34;, scopes read, (expiring \d{4}-\d\d-\d\d|never expiring)\)/);
    expect(page.text).toMatch(/<time datetime="[^"]+" title="\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC">/);
    expect(page.text).not.toContain('{&#34;');
    const csv = await c2.page(`${base}/audit?csv=audit`);
    expect(csv.text.split('\r\n')[0]).toBe('When,Who,What,On,Detail');
    expect(csv.text).toContain(',publish.rollback,');
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
});
