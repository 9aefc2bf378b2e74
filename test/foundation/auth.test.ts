import supertest from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestAppliance, FREE_ORG, OTHER_PROJECT, TEST_ORG, TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';

let t: TestAppliance;
beforeEach(() => {
  t = createTestAppliance();
});
afterEach(async () => {
  await t.close();
});

const jobUrl = (project = TEST_PROJECT) => `/v2/agent/${project}/job/aj_unknown`;

function expectUnauthorized(res: { status: number; body: unknown; headers: Record<string, string> }, message: RegExp) {
  expect(res.status).toBe(401);
  expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="docs-appliance"/);
  expect(res.body).toEqual({ error: expect.stringMatching(message) });
}

describe('admin keys', () => {
  it('answer 401 with a Bearer challenge for a missing header', async () => {
    expectUnauthorized(await t.api().get(jobUrl()), /Missing admin API key/);
  });

  it('answer 401 for another scheme, a malformed key and an unknown key', async () => {
    expectUnauthorized(await t.api().get(jobUrl()).set('Authorization', 'Basic dXNlcjpwYXNz'), /Invalid admin API key/);
    expectUnauthorized(await t.api('mint_short').get(jobUrl()), /Invalid admin API key/);
    expectUnauthorized(await t.api('sk_' + 'a'.repeat(40)).get(jobUrl()), /Invalid admin API key/);
    expectUnauthorized(await t.api('mint_' + 'A'.repeat(40)).get(jobUrl()), /Invalid admin API key/);
  });

  it('have the mint_ prefix and at least 32 base62 characters, and only a hash is stored', () => {
    const key = t.createKey();
    expect(key).toMatch(/^mint_[0-9A-Za-z]{32,}$/);
    const rows = t.ctx.db.prepare('SELECT * FROM admin_keys').all() as Record<string, unknown>[];
    expect(JSON.stringify(rows)).not.toContain(key);
    expect(JSON.stringify(rows)).not.toContain(key.slice(12));
  });

  it('stop working once revoked', async () => {
    const key = t.createKey();
    expect((await t.api(key).get(jobUrl())).status).toBe(404);
    const id = t.ctx.stores.adminKeys.list(TEST_ORG).find((k) => !k.label)!.id;
    expect(t.ctx.stores.adminKeys.revoke(id)).toBe(true);
    expectUnauthorized(await t.api(key).get(jobUrl()), /revoked/);
  });

  it('stop working at their expiry time', async () => {
    const expiresAt = new Date(t.clock.now().getTime() + 60_000);
    const key = t.ctx.stores.adminKeys.create({ orgId: TEST_ORG, expiresAt }).key;
    expect((await t.api(key).get(jobUrl())).status).toBe(404);
    t.clock.advance(60_000);
    expectUnauthorized(await t.api(key).get(jobUrl()), /expired/);
  });

  it('need the read scope for GET and the write scope for other methods; write implies read', async () => {
    const readOnly = t.createKey(TEST_ORG, { scopes: ['read'] });
    const writeOnly = t.createKey(TEST_ORG, { scopes: ['write'] });
    expect((await t.api(readOnly).get(jobUrl())).status).toBe(404);
    // Scope is checked before routing, so any write method on the documented path shows it.
    const post = await supertest(t.admin).delete(jobUrl()).set('Authorization', `Bearer ${readOnly}`);
    expect(post.status).toBe(403);
    expect(post.body).toEqual({ error: 'Admin API key lacks the "write" scope' });
    // The hosted documentation: "write allows every endpoint". A CI key that starts a job polls it.
    const get = await t.api(writeOnly).get(jobUrl());
    expect(get.status).toBe(404);
    expect(get.body).toEqual({ error: 'Job not found' });
  });

  it('reach only their own organization’s projects: another org’s project is a 404', async () => {
    const key = t.createKey(TEST_ORG);
    const res = await t.api(key).get(jobUrl(OTHER_PROJECT));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Project not found' });
    const unknown = await t.api(key).get(jobUrl('0123456789abcdef01234567'));
    expect(unknown.body).toEqual({ error: 'Project not found' });
  });

  it('prove the wiring: an unknown job of a known project is 404 "Job not found"', async () => {
    const res = await t.api(t.createKey()).get(jobUrl());
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Job not found' });
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('of a free-plan organization still authenticate (plans gate features, not keys)', async () => {
    const res = await t.api(t.createKey(FREE_ORG)).get(jobUrl('cccccccccccccccccccccccc'));
    expect(res.body).toEqual({ error: 'Job not found' });
  });
});
