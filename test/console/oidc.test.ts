import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createTestAppliance, OTHER_ORG, TEST_ORG, type TestAppliance } from '../helpers/appliance.js';
import { runCli } from '../helpers/cli.js';
import type { AuditEntry } from '../../data/stores/console-audit.js';
import { cliConfigFor, csrfOf } from './helpers.js';
import { browser, startOidcProvider } from './oidc-provider.js';

let a: TestAppliance;
let admin: http.Server;
let idp: Awaited<ReturnType<typeof startOidcProvider>>;
let origin: string;

const users = {
  alice: { email: 'alice@corp.internal', groups: ['docs-admins', 'staff'] },
  bob: { email: 'bob@corp.internal', groups: ['docs-readers'] },
  mallory: { email: 'mallory@corp.internal', groups: ['staff'] },
};

beforeEach(async () => {
  // The admin listener must be reachable at the redirect URI before the provider is configured with it.
  admin = http.createServer();
  await new Promise<void>((resolve) => admin.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(admin.address() as AddressInfo).port}`;
  idp = await startOidcProvider({ redirectUri: `${origin}/console/sso/callback`, users });
  a = createTestAppliance({
    config: {
      console: {
        oidc: {
          issuer: idp.issuer,
          clientId: 'docs-console',
          allowHttp: true,
          scopes: 'openid email groups',
          redirectUrl: `${origin}/console/sso/callback`,
          groups: [
            { group: 'docs-admins', orgId: TEST_ORG, role: 'write' },
            { group: 'docs-readers', orgId: TEST_ORG, role: 'read' },
            { group: 'docs-readers', orgId: OTHER_ORG, role: 'read' },
          ],
        },
      },
    },
  });
  admin.on('request', a.admin);
});

afterEach(async () => {
  await new Promise<void>((resolve) => admin.close(() => resolve()));
  await idp.close();
  await a.close();
});

const isCallback = (url: string) => url.startsWith(`${origin}/console/sso/callback`);

describe('console single sign-on against a real OpenID provider', () => {
  test('authorization code + PKCE + state + nonce; groups map to organizations and roles; changes are audited under the user', async () => {
    idp.as('alice');
    const b = browser();
    const signInPage = await b.request(`${origin}/console/sign-in`);
    expect(await signInPage.text()).toContain('href="/console/sso/start"');
    const out = await b.follow(`${origin}/console/sso/start`, isCallback);
    // The request to the provider carried PKCE (S256), state and nonce.
    const auth = new URL(out.visited[1]!);
    expect(auth.origin).toBe(idp.issuer);
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(auth.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(auth.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    // The attempt's cookie must come back on the provider's cross-site redirect: Lax, not Strict.
    expect(b.setCookies.find((c) => c.startsWith('da_console_sso='))).toMatch(/; Path=\/console\/sso; HttpOnly; SameSite=Lax; Max-Age=600$/);

    const done = await b.follow(out.stoppedAt!);
    expect(done.visited.at(-1)).toBe(`${origin}/console/orgs/${TEST_ORG}`);
    const overview = await done.res!.text();
    expect(done.res!.status).toBe(200);
    expect(overview).toContain('alice@corp.internal');
    expect(overview).toContain('<strong>write</strong> role');

    // The write role may create keys; the audit log names the user.
    const keysPage = await b.request(`${origin}/console/orgs/${TEST_ORG}/keys`);
    const created = await b.request(`${origin}/console/orgs/${TEST_ORG}/keys`, { method: 'POST', form: { _csrf: csrfOf(await keysPage.text()), scopes: 'read' } });
    expect(created.status).toBe(201);
    const log = JSON.parse((await runCli(['audit', '--org', TEST_ORG, '--json', '--config', cliConfigFor(a)])).out) as AuditEntry[];
    expect(log.map((e) => [e.actor, e.action])).toEqual([
      ['alice@corp.internal (sso)', 'key.create'],
      ['alice@corp.internal (sso)', 'session.sign-in'],
    ]);
    // Alice's groups map to no role in the other organization.
    expect((await b.request(`${origin}/console/orgs/${OTHER_ORG}`)).status).toBe(404);
  });

  test('a read group signs in with the read role in each mapped organization', async () => {
    idp.as('bob');
    const b = browser();
    const done = await b.follow(`${origin}/console/sso/start`);
    expect(done.res!.status).toBe(200);
    const html = await done.res!.text();
    expect(html).toContain('<strong>read</strong> role');
    // Both organizations are reachable; the first (by id) opens.
    expect(done.visited.at(-1)).toBe(`${origin}/console/orgs/${OTHER_ORG}`);
    expect(html).toContain('Switch to Test');
    const keysPage = await b.request(`${origin}/console/orgs/${OTHER_ORG}/keys`);
    expect(keysPage.status).toBe(200);
    const refused = await b.request(`${origin}/console/orgs/${OTHER_ORG}/keys`, { method: 'POST', form: { _csrf: csrfOf(await keysPage.text()), scopes: 'read' } });
    expect(refused.status).toBe(403);
  });

  test('a wrong state is refused and signs nobody in', async () => {
    idp.as('alice');
    const b = browser();
    const out = await b.follow(`${origin}/console/sso/start`, isCallback);
    const tampered = new URL(out.stoppedAt!);
    tampered.searchParams.set('state', 'x'.repeat(43));
    const res = await b.request(tampered.href);
    expect(res.status).toBe(401);
    expect(await res.text()).toContain('Single sign-on failed');
    expect(b.setCookies.some((c) => c.startsWith('da_console=') && !c.startsWith('da_console=;'))).toBe(false);
    expect((await b.request(`${origin}/console/orgs/${TEST_ORG}`)).status).toBe(303);
    expect(a.logs.find((l) => l.includes('single sign-on refused'))).toMatch(/state/);
  });

  test('a replayed code is refused: the same callback again, and the used code under a fresh attempt', async () => {
    idp.as('alice');
    const b = browser();
    const first = await b.follow(`${origin}/console/sso/start`, isCallback);
    const callback = first.stoppedAt!;
    expect((await b.request(callback)).status).toBe(303);

    // An attacker replaying the exact callback (its own browser, or the victim's again).
    const replay = await b.request(callback);
    expect(replay.status).toBe(401);
    expect(await replay.text()).toContain('unknown, already used or expired');

    // The used code slipped into a fresh, valid attempt: the provider refuses the code.
    const b2 = browser();
    const second = await b2.follow(`${origin}/console/sso/start`, isCallback);
    const mixed = new URL(second.stoppedAt!);
    mixed.searchParams.set('code', new URL(callback).searchParams.get('code')!);
    const res = await b2.request(mixed.href);
    expect(res.status).toBe(401);
    expect(await res.text()).toContain('Single sign-on failed');
    // Refused by the provider itself (the code was redeemed once), as the log records.
    const refused = a.logs.filter((l) => l.includes('single sign-on refused'));
    expect(refused).toHaveLength(1);
    expect(refused[0]).toContain('invalid_grant');
  });

  test('a user in no mapped group is refused with a page that says so', async () => {
    idp.as('mallory');
    const b = browser();
    const done = await b.follow(`${origin}/console/sso/start`);
    expect(done.res!.status).toBe(403);
    const html = await done.res!.text();
    expect(html).toContain('NO_MAPPED_GROUP');
    expect(html).toContain('mallory@corp.internal is signed in at the identity provider but is in no group');
    expect(a.ctx.db.prepare('SELECT count(*) AS n FROM console_sessions').get()).toEqual({ n: 0 });
  });
});
