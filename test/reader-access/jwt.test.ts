import crypto from 'node:crypto';
import supertest from 'supertest';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { TestAppliance } from '../helpers/appliance.js';
import { TEST_ORG, TEST_PROJECT } from '../helpers/appliance.js';
import type { ReaderAccessService } from '../../app/reader-access/service.js';
import { authAppliance, HOST, keyPair, readerAccessOf, readerCookieOf, setCookieHeader, signJwt } from './helpers.js';

let a: TestAppliance;
let key: ReturnType<typeof keyPair>;

beforeEach(() => {
  key = keyPair();
  a = authAppliance({ method: 'jwt', jwt: { publicKeyFile: key.publicKeyFile, loginUrl: 'https://portal.example/docs-login' }, session: { idleMinutes: 60, maxHours: 24 } });
});
afterEach(() => a.close());

const site = () => supertest(a.site);
const nowS = () => Math.floor(a.clock.now().getTime() / 1000);
const user = (over: Record<string, unknown> = {}) => ({ host: HOST, exp: nowS() + 10, expiresAt: nowS() + 3600, groups: ['admin'], content: { firstName: 'Jane' }, apiPlaygroundInputs: { header: { Authorization: 'Bearer u_1' } }, ...over });
const handoff = (token: string, query = '') => site().post(`/login/jwt-callback${query}`).set('Host', HOST).type('form').send({ token });
const me = (cookie?: string) => {
  const r = site().get('/_/reader/user').set('Host', HOST);
  return cookie ? r.set('Cookie', cookie) : r;
};

describe('JWT handoff (Mintlify: the portal signs the user data with EdDSA)', () => {
  test('a good token starts a session; /_/reader/user answers the user data, private and no-store', async () => {
    const res = await handoff(signJwt(user(), key.privateKey));
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/');
    const cookie = readerCookieOf(res)!;
    expect(cookie).toMatch(/^da_reader=v1\.[0-9a-f]+\.[A-Za-z0-9_-]+$/);
    // The cookie is opaque: none of the user data reads from it.
    expect(Buffer.from(cookie.split('.')[2]!, 'base64url').toString('latin1')).not.toContain('Jane');
    const u = await me(cookie);
    expect(u.status).toBe(200);
    expect(u.headers['cache-control']).toBe('private, no-store');
    expect(u.body).toEqual({ signedIn: true, groups: ['admin'], content: { firstName: 'Jane' }, apiPlaygroundInputs: { header: { Authorization: 'Bearer u_1' } } });
    // The ReaderAccess service gives the same reader to the site listener.
    const { access } = readerAccessOf(a);
    const req = { headers: { cookie } } as never;
    expect(access.enabled(TEST_PROJECT)).toBe(true);
    expect(access.view(req, TEST_PROJECT)).toEqual({ signedIn: true, groups: new Set(['admin']) });
    expect(access.reader(req, TEST_PROJECT)?.expiresAt).toBe(nowS() + 3600);
    // Signed in: audited in the console's log, without the reader's content.
    const audit = auditOf(a);
    expect(JSON.stringify(audit)).toContain('reader.sign-in');
    expect(JSON.stringify(audit)).not.toContain('Jane');
  });

  test('cookie flags: HttpOnly, SameSite=Lax, Path=/, Max-Age to expiresAt; Secure only over TLS (trusted proxy)', async () => {
    const res = await handoff(signJwt(user(), key.privateKey));
    const header = setCookieHeader(res, 'da_reader')!;
    expect(header).toMatch(/; Path=\/; HttpOnly; SameSite=Lax; Max-Age=3600$/);
    expect(header).not.toContain('Secure');
    a.close();
    a = authAppliance({ method: 'jwt', jwt: { publicKeyFile: key.publicKeyFile, loginUrl: 'https://portal.example/docs-login' } }, { admin: { trustProxy: true } });
    const tls = await site().post('/login/jwt-callback').set('Host', HOST).set('X-Forwarded-Proto', 'https').type('form').send({ token: signJwt(user(), key.privateKey) });
    expect(setCookieHeader(tls, 'da_reader')).toMatch(/; Secure$/);
  });

  test('refused: another key, expired exp, missing exp, another host, alg none, alg HS256 keyed with the public key, expiresAt past', async () => {
    const other = crypto.generateKeyPairSync('ed25519').privateKey;
    const pub = crypto.createPublicKey(key.privateKey).export({ type: 'spki', format: 'der' });
    const hs256 = (() => {
      const h = Buffer.from(JSON.stringify({ alg: 'HS256' })).toString('base64url');
      const p = Buffer.from(JSON.stringify(user())).toString('base64url');
      return `${h}.${p}.${crypto.createHmac('sha256', pub).update(`${h}.${p}`).digest('base64url')}`;
    })();
    const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(JSON.stringify(user())).toString('base64url')}.`;
    const { exp: _exp, ...noExp } = user();
    const bad = [
      signJwt(user(), other),
      signJwt(user({ exp: nowS() - 120 }), key.privateKey),
      signJwt(noExp, key.privateKey),
      signJwt(user({ host: 'docs.other.internal' }), key.privateKey),
      none,
      hs256,
      signJwt(user(), key.privateKey, { alg: 'HS256' }),
      signJwt(user({ expiresAt: nowS() - 1 }), key.privateKey),
      'garbage',
    ];
    for (const token of bad) {
      const res = await handoff(token);
      expect(res.status, token).toBe(401);
      expect(readerCookieOf(res)).toBeUndefined();
      expect(res.text).toContain('Sign-in failed');
    }
    expect(a.ctx.stores.readerSessions.listActive(TEST_PROJECT, 3_600_000)).toEqual([]);
  });

  test('the callback page keeps the redirect and loads its script from this origin (the site CSP allows it)', async () => {
    const page = await site().get('/login/jwt-callback?redirect=%2Fguides%2Fsetup%3Ftab%3D2').set('Host', HOST);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<script src="/_/reader/jwt-callback.js"></script>');
    expect(page.text).toContain('action="/login/jwt-callback?redirect=%2Fguides%2Fsetup%3Ftab%3D2"');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const script = await site().get('/_/reader/jwt-callback.js').set('Host', HOST);
    expect(script.headers['content-type']).toContain('text/javascript');
    expect(script.text).toContain('location.hash');
    const res = await handoff(signJwt(user(), key.privateKey), '?redirect=%2Fguides%2Fsetup%3Ftab%3D2');
    expect(res.headers.location).toBe('/guides/setup?tab=2');
  });

  test('redirect must be a same-site path: //host, /\\host and schemes become /', async () => {
    for (const r of ['//evil.example/x', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', 'guides', '/a\u0000b']) {
      const res = await handoff(signJwt(user(), key.privateKey), `?redirect=${encodeURIComponent(r)}`);
      expect(res.status).toBe(303);
      expect(res.headers.location, r).toBe('/');
    }
    // Percent-encoded characters stay encoded: a path, never a header break.
    const encoded = await handoff(signJwt(user(), key.privateKey), `?redirect=${encodeURIComponent('/a%0d%0aSet-Cookie:x')}`);
    expect(encoded.headers.location).toBe('/a%0d%0aSet-Cookie:x');
  });

  test('a sign-in form posted from another origin is refused (login CSRF)', async () => {
    const res = await site().post('/login/jwt-callback').set('Host', HOST).set('Origin', 'https://evil.example').type('form').send({ token: signJwt(user(), key.privateKey) });
    expect(res.status).toBe(403);
    expect(readerCookieOf(res)).toBeUndefined();
  });

  test('signed out: /_/reader/user is signedIn false; sign-in goes to the portal with the page wanted; /login too', async () => {
    const u = await me();
    expect(u.body).toEqual({ signedIn: false, groups: [], content: {}, apiPlaygroundInputs: {} });
    expect(u.headers['cache-control']).toBe('private, no-store');
    expect(readerAccessOf(a).access.signInUrl(TEST_PROJECT, '/guides/x?y=1')).toBe('https://portal.example/docs-login?redirect=%2Fguides%2Fx%3Fy%3D1');
    const login = await site().get('/login?redirect=%2Fquickstart').set('Host', HOST);
    expect(login.status).toBe(302);
    expect(login.headers.location).toBe('https://portal.example/docs-login?redirect=%2Fquickstart');
  });

  test('several login URLs: /login is a chooser, each link carrying the redirect', async () => {
    a.close();
    a = authAppliance({ method: 'jwt', jwt: { publicKeyFile: key.publicKeyFile, loginUrls: [{ name: 'Staff', url: 'https://staff.example/login' }, { name: 'Partners', url: 'https://partners.example/sso?x=1' }] } });
    expect(readerAccessOf(a).access.signInUrl(TEST_PROJECT, '/a')).toBe('/login?redirect=%2Fa');
    const page = await site().get('/login?redirect=%2Fa').set('Host', HOST);
    expect(page.status).toBe(200);
    expect(page.text).toContain('href="https://staff.example/login?redirect=%2Fa"');
    expect(page.text).toContain('href="https://partners.example/sso?x=1&amp;redirect=%2Fa"');
  });

  test('expiresAt ends the session; idle expiry ends it sooner; logout revokes it', async () => {
    const short = readerCookieOf(await handoff(signJwt(user({ expiresAt: nowS() + 600 }), key.privateKey)))!;
    a.clock.advance(599_000);
    expect((await me(short)).body.signedIn).toBe(true);
    a.clock.advance(2_000);
    expect((await me(short)).body.signedIn).toBe(false);

    // idleMinutes 60: used at 59 minutes it lives on, then 61 minutes unused end it.
    const idle = readerCookieOf(await handoff(signJwt(user(), key.privateKey)))!;
    a.clock.advance(59 * 60_000);
    expect((await me(idle)).body.signedIn).toBe(true);
    a.clock.advance(61 * 60_000);
    expect((await me(idle)).body.signedIn).toBe(false);

    const live = readerCookieOf(await handoff(signJwt(user(), key.privateKey)))!;
    const out = await site().get('/logout').set('Host', HOST).set('Cookie', live);
    expect(out.status).toBe(302);
    expect(out.headers.location).toBe('/login');
    expect(setCookieHeader(out, 'da_reader')).toMatch(/^da_reader=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0/);
    // The old cookie, replayed, is no longer a session (revoked server-side, not only cleared).
    expect((await me(live)).body.signedIn).toBe(false);
    expect(JSON.stringify(auditOf(a))).toContain('reader.sign-out');
  });

  test('sessions are listed and revoked per project; a cookie opens for no other project', async () => {
    const cookie = readerCookieOf(await handoff(signJwt(user(), key.privateKey)))!;
    const [s] = a.ctx.stores.readerSessions.listActive(TEST_PROJECT, 3_600_000);
    expect(s).toMatchObject({ projectId: TEST_PROJECT, method: 'jwt', groups: ['admin'] });
    expect(Object.keys(s!).sort()).toEqual(['apiPlaygroundInputs', 'content', 'createdAt', 'expiresAt', 'groups', 'id', 'lastSeenAt', 'method', 'projectId']);
    expect(readerAccessOf(a).access.reader({ headers: { cookie } } as never, 'bbbbbbbbbbbbbbbbbbbbbbbb')).toBeNull();
    const service = (a.features.find((f) => f.name === 'reader-access') as unknown as { service: ReaderAccessService }).service;
    expect(service.listSessions(TEST_PROJECT).map((x) => x.id)).toEqual([s!.id]);
    expect(service.revokeSession('bbbbbbbbbbbbbbbbbbbbbbbb', s!.id, 'Ada')).toBe(false);
    expect(service.revokeSession(TEST_PROJECT, s!.id, 'Ada')).toBe(true);
    expect((await me(cookie)).body.signedIn).toBe(false);
    expect(service.listSessions(TEST_PROJECT)).toEqual([]);
    expect(auditOf(a)[0]).toMatchObject({ actor: 'Ada', action: 'reader.session-revoked', target: TEST_PROJECT });
  });

  test('a project without auth: reader routes are not there', async () => {
    const res = await site().get('/_/reader/user').set('Host', 'docs.other.internal');
    expect(res.status).toBe(404);
    expect(readerAccessOf(a).access.enabled('bbbbbbbbbbbbbbbbbbbbbbbb')).toBe(false);
  });
});

const auditOf = (t: TestAppliance) => t.ctx.stores.consoleAudit.page({ orgId: TEST_ORG, limit: 100, offset: 0 });
