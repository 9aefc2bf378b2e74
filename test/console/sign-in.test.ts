import { afterEach, describe, expect, test } from 'vitest';
import supertest from 'supertest';
import { createTestAppliance, TEST_ORG, type TestAppliance } from '../helpers/appliance.js';
import { runCli } from '../helpers/cli.js';
import { cliConfigFor, consoleClient, csrfOf } from './helpers.js';

let a: TestAppliance;
afterEach(async () => {
  await a?.close();
});

const cookieOf = (res: supertest.Response, name: string): string | undefined =>
  ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith(`${name}=`));

describe('console sign-in with an admin key', () => {
  test('a pasted key becomes an opaque HttpOnly SameSite=Strict session; pages carry their own CSP, the API keeps default-src none', async () => {
    a = createTestAppliance();
    const key = a.createKey(TEST_ORG);
    const c = consoleClient(a.admin);
    const before = await c.agent.get('/console');
    expect(before.status).toBe(303);
    expect(before.headers.location).toBe('/console/sign-in');

    const res = await c.signIn(key);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/console/orgs/${TEST_ORG}`);
    const cookie = cookieOf(res, 'da_console')!;
    expect(cookie).toMatch(/^da_console=[A-Za-z0-9_-]{43}; Path=\/console; HttpOnly; SameSite=Strict$/);
    // Opaque: neither the key nor anything derived from it is the cookie, and only its hash is stored.
    expect(cookie).not.toContain(key);
    const id = /^da_console=([^;]+)/.exec(cookie)![1]!;
    const stored = a.ctx.db.prepare('SELECT id_hash FROM console_sessions').all() as { id_hash: string }[];
    expect(stored).toHaveLength(1);
    expect(stored[0]!.id_hash).not.toBe(id);

    const overview = await c.page(`/console/orgs/${TEST_ORG}`);
    expect(overview.status).toBe(200);
    expect(overview.text).toContain('Test docs');
    expect(overview.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(overview.headers['cache-control']).toBe('no-store');
    const api = await supertest(a.admin).get('/healthz');
    expect(api.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    // Nothing the page loads comes from elsewhere.
    expect(overview.text).not.toMatch(/(src|href)="(https?:)?\/\//);
    // The key never reaches the log.
    expect(a.logs.join('')).not.toContain(key);
  });

  test('behind a TLS proxy the session cookie is Secure', async () => {
    a = createTestAppliance({ config: { admin: { trustProxy: true } } });
    const key = a.createKey(TEST_ORG);
    const page = await supertest(a.admin).get('/console/sign-in').set('X-Forwarded-Proto', 'https');
    const pre = cookieOf(page, 'da_console_pre')!;
    expect(pre).toContain('; Secure');
    // The test speaks plain HTTP to the app, so it sends the Secure cookie itself, as the proxy would.
    const res = await supertest(a.admin)
      .post('/console/sign-in')
      .set('X-Forwarded-Proto', 'https')
      .set('Cookie', pre.split(';')[0]!)
      .type('form')
      .send({ _csrf: csrfOf(page.text), key });
    expect(res.status).toBe(303);
    expect(cookieOf(res, 'da_console')).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
  });

  test('a wrong, revoked or expired key signs nobody in', async () => {
    a = createTestAppliance();
    const revoked = a.ctx.stores.adminKeys.create({ orgId: TEST_ORG });
    a.ctx.stores.adminKeys.revoke(revoked.record.id);
    const expired = a.createKey(TEST_ORG, { expiresAt: new Date(a.clock.now().getTime() - 1000) });
    for (const [key, message] of [
      ['mint_' + 'x'.repeat(40), 'not a valid admin key'],
      ['not a key', 'not a valid admin key'],
      [revoked.key, 'This admin key is revoked'],
      [expired, 'This admin key is expired'],
    ] as const) {
      const c = consoleClient(a.admin);
      const res = await c.signIn(key);
      expect(res.status).toBe(401);
      expect(res.text).toContain(message);
      expect(cookieOf(res, 'da_console')).toBeUndefined();
    }
    expect(a.ctx.db.prepare('SELECT count(*) AS n FROM console_sessions').get()).toEqual({ n: 0 });
  });

  test("a revoked key's session ends at once, whether the CLI or the console revoked it", async () => {
    a = createTestAppliance();
    const viaCli = a.ctx.stores.adminKeys.create({ orgId: TEST_ORG });
    const c1 = consoleClient(a.admin);
    await c1.signIn(viaCli.key);
    expect((await c1.page(`/console/orgs/${TEST_ORG}`)).status).toBe(200);
    const r = await runCli(['keys', 'revoke', viaCli.record.id, '--config', cliConfigFor(a)]);
    expect(r.code).toBe(0);
    const after = await c1.page(`/console/orgs/${TEST_ORG}`);
    expect(after.status).toBe(303);
    expect(after.headers.location).toBe('/console/sign-in');
    const poll = await c1.agent.get(`/console/orgs/${TEST_ORG}/projects/aaaaaaaaaaaaaaaaaaaaaaaa/exports.json`);
    expect(poll.status).toBe(401);

    // Revoked from the console by another operator: the key's session ends too.
    const victim = a.ctx.stores.adminKeys.create({ orgId: TEST_ORG, scopes: ['read'] });
    const c2 = consoleClient(a.admin);
    await c2.signIn(victim.key);
    const admin = consoleClient(a.admin);
    await admin.signIn(a.createKey(TEST_ORG));
    await admin.page(`/console/orgs/${TEST_ORG}/keys`);
    const rev = await admin.post(`/console/orgs/${TEST_ORG}/keys/${victim.record.id}/revoke`);
    expect(rev.status).toBe(303);
    expect((await c2.page(`/console/orgs/${TEST_ORG}`)).headers.location).toBe('/console/sign-in');
    expect(a.ctx.stores.adminKeys.get(victim.record.id)!.revokedAt).not.toBeNull();
  });

  test('sessions end after the idle time and after the absolute lifetime', async () => {
    a = createTestAppliance({ config: { console: { idleMinutes: 30, absoluteHours: 2 } } });
    const key = a.createKey(TEST_ORG);
    const c = consoleClient(a.admin);
    await c.signIn(key);
    a.clock.advance(29 * 60_000);
    expect((await c.page(`/console/orgs/${TEST_ORG}`)).status).toBe(200);
    // Kept alive by use every 29 minutes, it still ends two hours after sign-in.
    for (let i = 0; i < 3; i++) {
      a.clock.advance(29 * 60_000);
      expect((await c.page(`/console/orgs/${TEST_ORG}`)).status).toBe(200);
    }
    a.clock.advance(5 * 60_000);
    expect((await c.page(`/console/orgs/${TEST_ORG}`)).status).toBe(303);

    const idle = consoleClient(a.admin);
    await idle.signIn(key);
    a.clock.advance(30 * 60_000 + 1);
    expect((await idle.page(`/console/orgs/${TEST_ORG}`)).headers.location).toBe('/console/sign-in');
  });

  test('sign-in attempts are rate-limited per client address', async () => {
    a = createTestAppliance({ config: { console: { signInAttemptsPer15Minutes: 3 } } });
    const c = consoleClient(a.admin);
    for (let i = 0; i < 3; i++) expect((await c.signIn('mint_' + 'y'.repeat(40))).status).toBe(401);
    const limited = await c.signIn(a.createKey(TEST_ORG));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.text).toContain('Too many attempts');
    a.clock.advance(15 * 60_000 + 1000);
    expect((await c.signIn(a.createKey(TEST_ORG))).status).toBe(303);
  });

  test('sign-out ends the session', async () => {
    a = createTestAppliance();
    const c = consoleClient(a.admin);
    await c.signIn(a.createKey(TEST_ORG));
    await c.page(`/console/orgs/${TEST_ORG}`);
    const out = await c.post('/console/sign-out');
    expect(out.status).toBe(303);
    expect((await c.page(`/console/orgs/${TEST_ORG}`)).headers.location).toBe('/console/sign-in');
    expect(a.ctx.db.prepare('SELECT count(*) AS n FROM console_sessions').get()).toEqual({ n: 0 });
  });
});
