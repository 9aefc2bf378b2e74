import * as oidc from 'openid-client';
import type { ReaderAuthConfig } from '../../config/reader-auth.js';
import { ApiError } from '../errors.js';
import { lazyConfiguration } from '../http/oidc-flow.js';
import { userData, type SignedUser } from './jwt.js';

export type OauthSettings = NonNullable<ReaderAuthConfig['oauth']>;

/** The client secret, from the file or the environment; undefined for a public client (PKCE only). */
function clientSecret(o: OauthSettings): string | undefined {
  if (o.clientSecret) return o.clientSecret;
  if (!o.clientSecretEnv) return undefined;
  const secret = process.env[o.clientSecretEnv];
  if (!secret) throw new ApiError(503, 'READER_SIGN_IN_MISCONFIGURED', `Sign-in is not available: the environment variable ${o.clientSecretEnv} is not set`);
  return secret;
}

/**
 * openid-client's configuration of the project's provider: from OpenID discovery when `issuer`
 * is set, else from the two endpoints Mintlify's dashboard asks for (a plain OAuth 2.0 server such
 * as Gitea or GitHub issues no ID token). Made on first use, again after a failure.
 */
export function providerConfiguration(o: OauthSettings): () => Promise<oidc.Configuration> {
  return lazyConfiguration(async () => {
    const secret = clientSecret(o);
    const clientAuth = secret ? undefined : oidc.None();
    const execute = o.allowHttp ? [oidc.allowInsecureRequests] : [];
    if (o.issuer) return oidc.discovery(new URL(o.issuer), o.clientId, secret, clientAuth, { execute, timeout: 10 });
    const server: oidc.ServerMetadata = { issuer: new URL(o.authorizationUrl!).origin, authorization_endpoint: o.authorizationUrl!, token_endpoint: o.tokenUrl! };
    const config = new oidc.Configuration(server, o.clientId, secret, clientAuth);
    for (const e of execute) e(config);
    return config;
  });
}

/** An ID token is expected (and its nonce checked) only from an OpenID provider asked for the openid scope. */
export const expectsIdToken = (o: OauthSettings): boolean => Boolean(o.issuer) && scopeOf(o).split(' ').includes('openid');

export const scopeOf = (o: OauthSettings): string => (o.scopes.length ? o.scopes : o.issuer ? ['openid'] : []).join(' ');

/**
 * The reader's user data after the code exchange: from the Info API (GET with the access token,
 * answering the user data format), or the groups of a token claim, or — with neither — identity
 * only: signed in, no groups (Mintlify: "the OAuth flow only verifies identity").
 */
export async function userAfterGrant(o: OauthSettings, tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers): Promise<SignedUser> {
  if (o.infoApiUrl) {
    const res = await fetch(o.infoApiUrl, { headers: { Authorization: `Bearer ${tokens.access_token}`, Accept: 'application/json' }, signal: AbortSignal.timeout(10_000), redirect: 'error' });
    if (!res.ok) throw new Error(`the Info API answered HTTP ${res.status}`);
    const body: unknown = await res.json();
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new Error('the Info API did not answer a JSON object');
    const user = userData(body as Record<string, unknown>);
    if (typeof user === 'string') throw new Error(`the Info API's user data: ${user}`);
    return user;
  }
  if (o.tokenClaims) {
    const claims = o.tokenClaims.source === 'id_token' ? (tokens.claims() as Record<string, unknown> | undefined) : accessTokenClaims(tokens.access_token);
    return { groups: groupsFromClaim(claims?.[o.tokenClaims.groupsClaim], o.tokenClaims.groupsDelimiter), content: {}, expiresAt: null };
  }
  return { groups: [], content: {}, expiresAt: null };
}

/**
 * Mintlify's rule (authentication-setup.mdx, "groups claim"): a string is split by the delimiter
 * when one is set, each part trimmed and empty parts dropped; without a delimiter the whole
 * string is one group; an array is one group per string item and never split.
 */
export function groupsFromClaim(claim: unknown, delimiter: string | undefined): string[] {
  let groups: string[] = [];
  if (typeof claim === 'string') groups = delimiter ? claim.split(delimiter) : [claim];
  else if (Array.isArray(claim)) groups = claim.filter((g): g is string => typeof g === 'string');
  return [...new Set(groups.map((g) => g.trim()).filter(Boolean))];
}

/**
 * The payload of a JWT access token. Not signature-checked: it came straight from the token
 * endpoint over the back channel the code exchange used (as OpenID trusts an ID token received so),
 * never through the browser.
 */
function accessTokenClaims(token: string): Record<string, unknown> {
  const part = token.split('.')[1];
  if (!part) throw new Error('tokenClaims.source is "access_token" but the access token is not a JWT');
  const payload: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  if (typeof payload !== 'object' || payload === null) throw new Error('the access token payload is not a JSON object');
  return payload as Record<string, unknown>;
}
