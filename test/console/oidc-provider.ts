import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

export interface TestUser {
  email: string;
  /** A string too: reader sign-in's groupsDelimiter splits one. */
  groups: string[] | string;
}

/**
 * A real OpenID provider (oidc-provider, a certified implementation) on 127.0.0.1 for the console's
 * SSO tests. Its login step signs in whichever user the test chose (`as`); consent is granted for
 * the first-party console client, as a network's provider is usually set up.
 */
export async function startOidcProvider(opts: { redirectUri: string; users: Record<string, TestUser>; clientId?: string; clientSecret?: string; idTokenClaims?: boolean }) {
  let current: string | undefined;
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: opts.clientId ?? 'docs-console',
        ...(opts.clientSecret ? { client_secret: opts.clientSecret, token_endpoint_auth_method: 'client_secret_post' } : { token_endpoint_auth_method: 'none' }),
        redirect_uris: [opts.redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    // A signing key of its own (the library's built-in development keys print a warning).
    jwks: { keys: [{ ...crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: 'test', alg: 'RS256', use: 'sig' }] },
    claims: { openid: ['sub'], email: ['email'], groups: ['groups'] },
    findAccount: async (_ctx: KoaContextWithOIDC, id: string) => {
      const user = opts.users[id];
      if (!user) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, email: user.email, groups: user.groups }) };
    },
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope('openid email groups');
      await grant.save();
      return grant;
    },
    features: { devInteractions: { enabled: false } },
    // Reader sign-in's tokenClaims (source id_token) reads the groups from the ID token itself.
    ...(opts.idTokenClaims ? { conformIdTokenClaims: false } : {}),
  });
  // Quiet: the provider reports refused grants (the tests' replays) as server errors otherwise.
  provider.on('server_error', () => undefined);
  const callback = provider.callback();
  server.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      void (async () => {
        try {
          if (!current) throw new Error('test chose no user');
          await provider.interactionFinished(req, res, { login: { accountId: current } }, { mergeWithLastSubmission: false });
        } catch (err) {
          res.statusCode = 500;
          res.end(String(err));
        }
      })();
      return;
    }
    callback(req, res);
  });
  return {
    issuer,
    as(user: string) {
      current = user;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A browser stand-in across hosts: keeps each host's cookies and follows redirects by hand, recording each URL. */
export function browser() {
  const jars = new Map<string, Map<string, string>>();
  const setCookies: string[] = [];
  async function request(url: string, init: { method?: string; form?: Record<string, string> } = {}) {
    const u = new URL(url);
    const jar = jars.get(u.host) ?? new Map<string, string>();
    jars.set(u.host, jar);
    const headers: Record<string, string> = {};
    if (jar.size) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const res = await fetch(url, { method: init.method ?? 'GET', headers, body, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      setCookies.push(c);
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (/max-age=0|expires=Thu, 01 Jan 1970/i.test(c) || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  }
  return {
    request,
    setCookies,
    /** Follows redirects from `url`; stops before a URL `stopAt` matches (returning it) or at a non-redirect. */
    async follow(url: string, stopAt?: (next: string) => boolean): Promise<{ res: Response | null; visited: string[]; stoppedAt: string | null }> {
      const visited: string[] = [];
      let next = url;
      for (let i = 0; i < 15; i++) {
        if (stopAt && i > 0 && stopAt(next)) return { res: null, visited, stoppedAt: next };
        visited.push(next);
        const res = await request(next);
        const location = res.headers.get('location');
        if (res.status < 300 || res.status >= 400 || !location) return { res, visited, stoppedAt: null };
        next = new URL(location, next).href;
      }
      throw new Error(`too many redirects from ${url}: ${visited.join(' → ')}`);
    },
  };
}
