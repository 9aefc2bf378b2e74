import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import type { TestAppliance } from '../helpers/appliance.js';
import { TEST_ORG } from '../helpers/appliance.js';
import { browser, startOidcProvider } from '../console/oidc-provider.js';
import { groupsFromClaim } from '../../app/reader-access/oauth.js';
import type { ConfigInput } from '../../config/schema.js';
import { authAppliance } from './helpers.js';

type Oauth = NonNullable<NonNullable<ConfigInput['projects']>[number]['auth']>['oauth'];

const users = {
  ann: { email: 'ann@corp.internal', groups: ' admin , beta,, ' },
  ben: { email: 'ben@corp.internal', groups: ['partners', 'a,b'] },
};

let closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.reverse()) await c();
  closers = [];
});

/** The site listener on 127.0.0.1 (the project's domain), the provider, and the appliance between them. */
async function setUp(oauth: (issuer: string) => Oauth, provider: { clientSecret?: string; idTokenClaims?: boolean } = {}) {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const idp = await startOidcProvider({ redirectUri: `${origin}/login/oauth-callback`, users, clientId: 'docs-readers', ...provider });
  closers.push(() => idp.close());
  const a: TestAppliance = authAppliance({ method: 'oauth', oauth: oauth(idp.issuer) }, {}, '127.0.0.1');
  closers.push(() => a.close());
  server.on('request', a.site);
  return { a, idp, origin };
}

const isProvider = (issuer: string) => (url: string) => url.startsWith(issuer);

describe('OAuth / OpenID Connect sign-in against a real provider', () => {
  test('code + PKCE + state + nonce; groups from the ID token claim split by groupsDelimiter; the page wanted is kept', async () => {
    const { a, idp, origin } = await setUp(
      (issuer) => ({ issuer, clientId: 'docs-readers', clientSecret: 'top-secret', allowHttp: true, scopes: ['openid', 'email', 'groups'], tokenClaims: { source: 'id_token', groupsDelimiter: ',' } }),
      { clientSecret: 'top-secret', idTokenClaims: true },
    );
    idp.as('ann');
    const b = browser();
    const out = await b.follow(`${origin}/login?redirect=%2Fguides%2Fpartner`);
    const auth = new URL(out.visited[1]!);
    expect(auth.origin).toBe(idp.issuer);
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(auth.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(auth.searchParams.get('redirect_uri')).toBe(`${origin}/login/oauth-callback`);
    expect(b.setCookies.find((c) => c.startsWith('da_reader_oauth='))).toMatch(/Path=\/login\/oauth-callback; HttpOnly; SameSite=Lax/);
    // Back at the callback, then at the page the reader wanted.
    expect(out.visited.some((u) => u.startsWith(`${origin}/login/oauth-callback?`))).toBe(true);
    expect(out.visited.at(-1)).toBe(`${origin}/guides/partner`);
    const me = await (await b.request(`${origin}/_/reader/user`)).json();
    expect(me).toEqual({ signedIn: true, groups: ['admin', 'beta'], content: {}, apiPlaygroundInputs: {} });
    expect(a.ctx.stores.consoleAudit.page({ orgId: TEST_ORG, limit: 5, offset: 0 })[0]).toMatchObject({ action: 'reader.sign-in', actor: 'reader (oauth)' });

    // A replayed callback finds no attempt.
    const callback = out.visited.find((u) => u.startsWith(`${origin}/login/oauth-callback?`))!;
    const replay = await b.request(callback);
    expect(replay.status).toBe(401);
  });

  test('groups from the Info API (GET with the access token as Bearer, the user data format); logout goes to logoutUrl', async () => {
    const seen: string[] = [];
    const info = http.createServer((req, res) => {
      seen.push(req.headers.authorization ?? '');
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ groups: ['partners'], content: { company: 'Acme' }, apiPlaygroundInputs: { header: { 'X-Key': 'k1' } }, expiresAt: Math.floor(Date.now() / 1000) + 7200 }));
    });
    await new Promise<void>((resolve) => info.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => info.close(() => resolve())));
    const infoUrl = `http://127.0.0.1:${(info.address() as AddressInfo).port}/user-info`;
    const { a, idp, origin } = await setUp((issuer) => ({ issuer, clientId: 'docs-readers', allowHttp: true, scopes: ['openid'], infoApiUrl: infoUrl, logoutUrl: `${issuer}/session/end?x=1` }));
    idp.as('ben');
    const b = browser();
    await b.follow(`${origin}/login`, isProvider('never'));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/^Bearer \S+$/);
    const me = await (await b.request(`${origin}/_/reader/user`)).json();
    expect(me).toEqual({ signedIn: true, groups: ['partners'], content: { company: 'Acme' }, apiPlaygroundInputs: { header: { 'X-Key': 'k1' } } });
    const out = await b.request(`${origin}/logout`);
    expect(out.status).toBe(302);
    expect(out.headers.get('location')).toBe(`${idp.issuer}/session/end?x=1`);
    expect((await (await b.request(`${origin}/_/reader/user`)).json()).signedIn).toBe(false);
    expect(a.ctx.stores.readerSessions.listActive(a.config.projects[0]!.id, 3_600_000)).toEqual([]);
  });

  test('without discovery: authorizationUrl and tokenUrl of a plain OAuth 2.0 server; identity only (no groups)', async () => {
    const { idp, origin } = await setUp((issuer) => ({ authorizationUrl: `${issuer}/auth`, tokenUrl: `${issuer}/token`, clientId: 'docs-readers', allowHttp: true, scopes: ['email'] }));
    idp.as('ben');
    const b = browser();
    const out = await b.follow(`${origin}/login`);
    expect(new URL(out.visited[1]!).pathname).toBe('/auth');
    expect(new URL(out.visited[1]!).searchParams.has('nonce')).toBe(false);
    const me = await (await b.request(`${origin}/_/reader/user`)).json();
    expect(me).toEqual({ signedIn: true, groups: [], content: {}, apiPlaygroundInputs: {} });
  });

  test('groupsClaim rules as Mintlify documents them', () => {
    expect(groupsFromClaim(' general , client ,,', ',')).toEqual(['general', 'client']);
    expect(groupsFromClaim('general,client', undefined)).toEqual(['general,client']);
    expect(groupsFromClaim(['a,b', ' c ', 7, ''], ',')).toEqual(['a,b', 'c']);
    expect(groupsFromClaim(undefined, ',')).toEqual([]);
    expect(groupsFromClaim('x||y', '||')).toEqual(['x', 'y']);
  });
});
