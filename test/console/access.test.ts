import { afterEach, describe, expect, test } from 'vitest';
import supertest from 'supertest';
import { createTestAppliance, FREE_ORG, FREE_PROJECT, OTHER_ORG, OTHER_PROJECT, TEST_ORG, TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';
import { consoleClient } from './helpers.js';

let a: TestAppliance;
afterEach(async () => {
  await a?.close();
});

const keysOf = (t: TestAppliance) => t.ctx.stores.adminKeys.list(TEST_ORG).length;

describe('console access rules', () => {
  test('every form needs its CSRF token; a missing, wrong or cross-site one is refused and changes nothing', async () => {
    a = createTestAppliance();
    const c = consoleClient(a.admin);
    await c.signIn(a.createKey(TEST_ORG));
    await c.page(`/console/orgs/${TEST_ORG}/keys`);
    const before = keysOf(a);
    const url = `/console/orgs/${TEST_ORG}/keys`;
    const missing = await c.agent.post(url).type('form').send({ scopes: 'read' });
    const wrong = await c.agent.post(url).type('form').send({ _csrf: 'A'.repeat(43), scopes: 'read' });
    const crossSite = await c.agent.post(url).set('Origin', 'http://evil.example').type('form').send({ _csrf: c.csrf, scopes: 'read' });
    for (const r of [missing, wrong, crossSite]) {
      expect(r.status).toBe(403);
      expect(r.text).toContain('CSRF_REJECTED');
    }
    expect(keysOf(a)).toBe(before);
    // The same request with the page's token works.
    expect((await c.post(url, { scopes: 'read' })).status).toBe(201);
    expect(keysOf(a)).toBe(before + 1);

    // Actions other than keys, and sign-out, are covered by the same check.
    for (const path of [`/console/orgs/${TEST_ORG}/projects/${TEST_PROJECT}/exports`, '/console/sign-out']) {
      expect((await c.agent.post(path).type('form').send({})).status).toBe(403);
    }
    expect(a.ctx.stores.exportJobs.countQueued()).toBe(0);
    // The sign-in form too: without the pre-session token no session is made.
    const fresh = supertest(a.admin);
    const noToken = await fresh.post('/console/sign-in').type('form').send({ key: a.createKey(TEST_ORG) });
    expect(noToken.status).toBe(403);
  });

  test("another organization's projects and pages are invisible (404, as for an unknown id)", async () => {
    a = createTestAppliance();
    const c = consoleClient(a.admin);
    await c.signIn(a.createKey(TEST_ORG));
    const overview = await c.page(`/console/orgs/${TEST_ORG}`);
    expect(overview.text).toContain('Test docs');
    expect(overview.text).not.toContain('Other docs');
    expect(overview.text).not.toContain(OTHER_PROJECT);
    for (const url of [
      `/console/orgs/${OTHER_ORG}`,
      `/console/orgs/${OTHER_ORG}/keys`,
      `/console/orgs/${OTHER_ORG}/audit`,
      `/console/orgs/${OTHER_ORG}/projects/${OTHER_PROJECT}`,
      `/console/orgs/${TEST_ORG}/projects/${OTHER_PROJECT}`,
      `/console/orgs/${TEST_ORG}/projects/${OTHER_PROJECT}/analytics`,
      `/console/orgs/${TEST_ORG}/projects/${OTHER_PROJECT}/exports.json`,
      `/console/orgs/no_such_org`,
    ]) {
      const r = await c.page(url);
      expect(r.status, url).toBe(404);
      expect(r.text).not.toContain('Other docs');
    }
    // Changes aimed across the boundary fail the same way and change nothing.
    const otherKey = a.ctx.stores.adminKeys.create({ orgId: OTHER_ORG });
    await c.page(`/console/orgs/${TEST_ORG}/keys`);
    expect((await c.post(`/console/orgs/${TEST_ORG}/keys/${otherKey.record.id}/revoke`)).status).toBe(404);
    expect((await c.post(`/console/orgs/${OTHER_ORG}/keys/${otherKey.record.id}/revoke`)).status).toBe(404);
    expect((await c.post(`/console/orgs/${TEST_ORG}/projects/${OTHER_PROJECT}/exports`)).status).toBe(404);
    expect(a.ctx.stores.adminKeys.get(otherKey.record.id)!.revokedAt).toBeNull();
    expect(a.ctx.stores.exportJobs.countQueued()).toBe(0);
    // The other organization's keys are not listed.
    expect((await c.page(`/console/orgs/${TEST_ORG}/keys`)).text).not.toContain(otherKey.record.id);
  });

  test('the read role sees pages but cannot create or revoke keys, start exports or archive jobs', async () => {
    a = createTestAppliance();
    const c = consoleClient(a.admin);
    await c.signIn(a.createKey(TEST_ORG, { scopes: ['read'] }));
    const keysPage = await c.page(`/console/orgs/${TEST_ORG}/keys`);
    expect(keysPage.status).toBe(200);
    expect(keysPage.text).toContain('<strong>read</strong> role');
    expect(keysPage.text).not.toContain('Create a key');
    const before = keysOf(a);
    const create = await c.post(`/console/orgs/${TEST_ORG}/keys`, { scopes: ['read', 'write'] });
    expect(create.status).toBe(403);
    expect(create.text).toContain('WRITE_ROLE_REQUIRED');
    expect(keysOf(a)).toBe(before);
    const victim = a.ctx.stores.adminKeys.create({ orgId: TEST_ORG });
    expect((await c.post(`/console/orgs/${TEST_ORG}/keys/${victim.record.id}/revoke`)).status).toBe(403);
    expect(a.ctx.stores.adminKeys.get(victim.record.id)!.revokedAt).toBeNull();
    const project = await c.page(`/console/orgs/${TEST_ORG}/projects/${TEST_PROJECT}`);
    expect(project.text).not.toContain('Start an export');
    expect((await c.post(`/console/orgs/${TEST_ORG}/projects/${TEST_PROJECT}/exports`)).status).toBe(403);
    expect(a.ctx.stores.exportJobs.countQueued()).toBe(0);
    a.ctx.stores.agentJobs.create({ id: 'aj_read', projectId: TEST_PROJECT, orgId: TEST_ORG, repository: 'r', ref: 'b', model: 'm', prompt: 'p' });
    a.ctx.stores.agentJobs.claimNext();
    a.ctx.stores.agentJobs.complete('aj_read', null);
    expect((await c.post(`/console/orgs/${TEST_ORG}/projects/${TEST_PROJECT}/agent/aj_read/archive`)).status).toBe(403);
    expect(a.ctx.stores.agentJobs.get('aj_read')!.status).toBe('completed');
    // Nothing was recorded as changed.
    expect(a.ctx.stores.consoleAudit.page({ orgId: TEST_ORG, limit: 100, offset: 0 }).map((e) => e.action)).toEqual(['session.sign-in']);
  });

  test("plans apply as in the API: a free organization's project cannot be exported", async () => {
    a = createTestAppliance();
    const c = consoleClient(a.admin);
    await c.signIn(a.createKey(FREE_ORG));
    const page = await c.page(`/console/orgs/${FREE_ORG}/projects/${FREE_PROJECT}`);
    expect(page.text).toContain('Static export requires the enterprise plan');
    const r = await c.post(`/console/orgs/${FREE_ORG}/projects/${FREE_PROJECT}/exports`);
    expect(r.status).toBe(403);
    expect(r.text).toContain('PLAN_REQUIRED');
    expect(a.ctx.stores.exportJobs.countQueued()).toBe(0);
  });

  test('the export queue limits apply as in the API', async () => {
    a = createTestAppliance({ config: { staticExport: { maxQueuedJobsPerOrg: 1 } } });
    const c = consoleClient(a.admin);
    await c.signIn(a.createKey(TEST_ORG));
    await c.page(`/console/orgs/${TEST_ORG}/projects/${TEST_PROJECT}`);
    expect((await c.post(`/console/orgs/${TEST_ORG}/projects/${TEST_PROJECT}/exports`)).status).toBe(303);
    const full = await c.post(`/console/orgs/${TEST_ORG}/projects/${TEST_PROJECT}/exports`);
    expect(full.status).toBe(429);
    expect(full.text).toContain('staticExport.maxQueuedJobsPerOrg');
    expect(a.ctx.stores.exportJobs.countQueued()).toBe(1);
  });
});

describe('console form limits', () => {
  test('an oversized form or too many fields is 413, not a server error', async () => {
    a = createTestAppliance();
    const c = consoleClient(a.admin);
    const big = await c.agent.post('/console/sign-in').type('form').send({ key: 'x'.repeat(40 * 1024) });
    expect(big.status).toBe(413);
    const fields: Record<string, string> = {};
    for (let i = 0; i < 60; i++) fields[`f${i}`] = 'x';
    const many = await c.agent.post('/console/sign-in').type('form').send(fields);
    expect(many.status).toBe(413);
    expect(a.logs.join('')).not.toContain('console request failed');
  });
});

describe('console CSRF behind a proxy', () => {
  test('the Origin may name admin.publicUrl or a trusted proxy’s X-Forwarded-Host; any other host is refused', async () => {
    a = createTestAppliance({ config: { admin: { publicUrl: 'https://docs-admin.corp.internal', trustProxy: true } } });
    const c = consoleClient(a.admin);
    await c.signIn(a.createKey(TEST_ORG));
    await c.page(`/console/orgs/${TEST_ORG}/keys`);
    const url = `/console/orgs/${TEST_ORG}/keys`;
    const viaPublic = await c.agent.post(url).set('Origin', 'https://docs-admin.corp.internal').type('form').send({ _csrf: c.csrf, scopes: 'read' });
    expect(viaPublic.status).toBe(201);
    const viaForwarded = await c.agent.post(url).set('Origin', 'https://admin.lb.internal').set('X-Forwarded-Host', 'admin.lb.internal').type('form').send({ _csrf: c.csrf, scopes: 'read' });
    expect(viaForwarded.status).toBe(201);
    const other = await c.agent.post(url).set('Origin', 'https://evil.example').set('X-Forwarded-Host', 'admin.lb.internal').type('form').send({ _csrf: c.csrf, scopes: 'read' });
    expect(other.status).toBe(403);
    const nullOrigin = await c.agent.post(url).set('Origin', 'null').type('form').send({ _csrf: c.csrf, scopes: 'read' });
    expect(nullOrigin.status).toBe(403);
  });

  test('without a trusted proxy, X-Forwarded-Host is not believed', async () => {
    a = createTestAppliance();
    const c = consoleClient(a.admin);
    await c.signIn(a.createKey(TEST_ORG));
    await c.page(`/console/orgs/${TEST_ORG}/keys`);
    const r = await c.agent.post(`/console/orgs/${TEST_ORG}/keys`).set('Origin', 'https://evil.example').set('X-Forwarded-Host', 'evil.example').type('form').send({ _csrf: c.csrf, scopes: 'read' });
    expect(r.status).toBe(403);
  });
});
