import crypto from 'node:crypto';
import * as oidc from 'openid-client';
import type { Clock } from '../clock.js';

/**
 * The authorization code flow with PKCE, state and nonce, through openid-client: what the
 * console's single sign-on (app/console/sso.ts) and reader OAuth sign-in (app/reader-access/oauth.ts)
 * share. The state, nonce and verifier stay on the server, found by the random id of a short-lived
 * cookie the caller sets; each attempt is used once, so a replayed callback finds nothing.
 */

/** An attempt lives this long between leaving for the provider and coming back. */
export const FLOW_TTL_MS = 10 * 60_000;
/** Attempts held at once; past it the oldest is dropped (sign-in is rate-limited too). */
const MAX_FLOWS = 10_000;

export interface Flow<E = unknown> {
  state: string;
  nonce: string;
  verifier: string;
  expiresAt: number;
  /** What the caller needs back at the callback (the page the reader wanted). */
  extra: E;
}

export function createFlowStore<E = undefined>(clock: Clock) {
  const flows = new Map<string, Flow<E>>();
  return {
    /** A new attempt; the id goes into the caller's cookie. */
    begin(extra: E): { id: string; flow: Flow<E> } {
      const now = clock.now().getTime();
      for (const [id, f] of flows) if (f.expiresAt <= now) flows.delete(id);
      if (flows.size >= MAX_FLOWS) flows.delete(flows.keys().next().value!);
      const flow: Flow<E> = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier(), expiresAt: now + FLOW_TTL_MS, extra };
      const id = crypto.randomBytes(24).toString('base64url');
      flows.set(id, flow);
      return { id, flow };
    },
    /** The attempt of that id, once; undefined when unknown, used or expired. */
    take(id: string | undefined): Flow<E> | undefined {
      if (!id) return undefined;
      const flow = flows.get(id);
      flows.delete(id);
      return flow && flow.expiresAt > clock.now().getTime() ? flow : undefined;
    },
  };
}

/** The provider's configuration, made on first use and again after a failure (a provider that was down is asked anew). */
export function lazyConfiguration(make: () => Promise<oidc.Configuration>): () => Promise<oidc.Configuration> {
  let pending: Promise<oidc.Configuration> | undefined;
  return () => {
    if (!pending) {
      pending = make();
      pending.catch(() => {
        pending = undefined;
      });
    }
    return pending;
  };
}

/** Where the browser is sent: the provider's authorization endpoint with PKCE (S256), state and nonce. */
export async function authorizationUrl(
  config: oidc.Configuration,
  flow: Flow<unknown>,
  /** `nonce: false` for a plain OAuth 2.0 exchange: providers refuse a nonce without the openid scope. */
  opts: { redirectUri: string; scope: string; params?: Record<string, string>; nonce?: boolean },
): Promise<URL> {
  return oidc.buildAuthorizationUrl(config, {
    ...opts.params,
    redirect_uri: opts.redirectUri,
    scope: opts.scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: 'S256',
    state: flow.state,
    ...(opts.nonce === false ? {} : { nonce: flow.nonce }),
  });
}

/** The code of the callback URL exchanged for tokens, with state, nonce and verifier checked. */
export function exchangeCode(config: oidc.Configuration, flow: Flow<unknown>, callbackUrl: URL, idTokenExpected: boolean) {
  return oidc.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: flow.verifier,
    expectedState: flow.state,
    ...(idTokenExpected ? { expectedNonce: flow.nonce } : {}),
    idTokenExpected,
  });
}

/** What failed, for the log: the library's message, its cause's and the provider's error code; never a code or token. */
export function refusalReason(err: unknown): Record<string, unknown> {
  const e = err as Error & { code?: unknown; error?: unknown; error_description?: unknown; cause?: unknown };
  return {
    name: e.name,
    message: e.message,
    code: e.code,
    ...(typeof e.error === 'string' ? { error: e.error } : {}),
    ...(typeof e.error_description === 'string' ? { description: e.error_description.slice(0, 300) } : {}),
    ...(e.cause instanceof Error ? { cause: e.cause.message } : {}),
  };
}
