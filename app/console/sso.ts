import crypto from 'node:crypto';
import { Router, type Request } from 'express';
import * as oidc from 'openid-client';
import type { Config } from '../../config/schema.js';
import type { ConsoleRole, Membership } from '../../data/stores/console-sessions.js';
import type { AppContext } from '../context.js';
import { ApiError, errors } from '../errors.js';
import { requestOrigin } from '../http/request-origin.js';
import { readCookies, setCookie, SSO_COOKIE } from './cookies.js';
import { startSession } from './session.js';

type OidcSettings = NonNullable<Config['console']['oidc']>;

/** An SSO attempt lives this long between leaving for the provider and coming back. */
const FLOW_TTL_MS = 10 * 60_000;
/** Attempts held at once; past it the oldest is dropped (sign-in is rate-limited per address too). */
const MAX_FLOWS = 10_000;

interface Flow {
  state: string;
  nonce: string;
  verifier: string;
  expiresAt: number;
}

/**
 * OpenID Connect sign-in (authorization code flow with PKCE, state and nonce) through
 * openid-client. The state, nonce and verifier stay on the server, found by the random id of a
 * short-lived cookie that must survive the provider's cross-site redirect back (SameSite=Lax).
 * Each attempt is used once: a replayed callback finds nothing.
 */
export function createSsoRouter(ctx: AppContext, settings: OidcSettings, deps: { rateLimited: (req: Request) => void }): Router {
  const router = Router();
  const flows = new Map<string, Flow>();
  let discovered: Promise<oidc.Configuration> | undefined;

  const configuration = (): Promise<oidc.Configuration> => {
    if (!discovered) {
      const secret = settings.clientSecretEnv ? process.env[settings.clientSecretEnv] : undefined;
      if (settings.clientSecretEnv && !secret) throw new ApiError(503, 'SSO_MISCONFIGURED', `Single sign-on is not available: the environment variable ${settings.clientSecretEnv} is not set`);
      discovered = oidc.discovery(new URL(settings.issuer), settings.clientId, secret, secret ? undefined : oidc.None(), {
        execute: settings.allowHttp ? [oidc.allowInsecureRequests] : [],
        timeout: 10,
      });
      // A provider that was down is asked again on the next attempt.
      discovered.catch(() => {
        discovered = undefined;
      });
    }
    return discovered;
  };

  const redirectUri = (req: Request): string =>
    settings.redirectUrl ?? `${(ctx.config.admin.publicUrl ?? requestOrigin(req, `localhost:${ctx.config.admin.port}`)).replace(/\/+$/, '')}/console/sso/callback`;

  router.get('/console/sso/start', async (req, res) => {
    deps.rateLimited(req);
    const config = await providerOr503(configuration, ctx);
    const now = ctx.clock.now().getTime();
    for (const [id, f] of flows) if (f.expiresAt <= now) flows.delete(id);
    if (flows.size >= MAX_FLOWS) flows.delete(flows.keys().next().value!);
    const flow: Flow = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier(), expiresAt: now + FLOW_TTL_MS };
    const id = crypto.randomBytes(24).toString('base64url');
    flows.set(id, flow);
    setCookie(req, res, SSO_COOKIE, id, { path: '/console/sso', sameSite: 'Lax', maxAge: FLOW_TTL_MS / 1000 });
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri(req),
      scope: settings.scopes,
      code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
    });
    res.redirect(303, url.href);
  });

  router.get('/console/sso/callback', async (req, res) => {
    deps.rateLimited(req);
    const id = readCookies(req).get(SSO_COOKIE);
    const flow = id ? flows.get(id) : undefined;
    if (id) flows.delete(id);
    setCookie(req, res, SSO_COOKIE, '', { path: '/console/sso', sameSite: 'Lax', maxAge: 0 });
    if (!flow || flow.expiresAt <= ctx.clock.now().getTime()) {
      throw errors.signInFailed('This sign-in attempt is unknown, already used or expired; start again');
    }
    const config = await providerOr503(configuration, ctx);
    const current = new URL(redirectUri(req));
    current.search = new URL(req.originalUrl, 'http://x').search;
    let claims: Record<string, unknown>;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      claims = { ...(tokens.claims() ?? {}) };
      if (claims[settings.groupsClaim] === undefined && tokens.access_token) {
        const info = await oidc.fetchUserInfo(config, tokens.access_token, String(claims.sub));
        claims = { ...info, ...claims, [settings.groupsClaim]: info[settings.groupsClaim] };
      }
    } catch (err) {
      // The library's message says which check failed (state, nonce, code); the user sees a plain refusal.
      ctx.log.warn({ reqId: req.id, reason: refusalReason(err) }, 'console: single sign-on refused');
      throw errors.signInFailed('Single sign-on failed: the identity provider did not confirm this sign-in. Start again');
    }
    const memberships = mapGroups(groupsOf(claims[settings.groupsClaim]), settings.groups, (orgId) => ctx.stores.organizations.get(orgId) !== undefined);
    const subject = String(claims.sub);
    const name = typeof claims[settings.nameClaim] === 'string' ? String(claims[settings.nameClaim]) : subject;
    if (memberships.length === 0) {
      ctx.log.warn({ reqId: req.id, subject }, 'console: single sign-on user has no group mapped to an organization');
      throw new ApiError(403, 'NO_MAPPED_GROUP', `${name} is signed in at the identity provider but is in no group this appliance maps to an organization; ask its operator to add one to console.oidc.groups`);
    }
    startSession(req, res, ctx.stores, ctx.config.console, { kind: 'oidc', subject, displayName: name, memberships });
    for (const m of memberships) ctx.stores.consoleAudit.record({ orgId: m.orgId, actor: `${name} (sso)`, action: 'session.sign-in', target: subject, detail: { method: 'sso', role: m.role } });
    res.redirect(303, `/console/orgs/${encodeURIComponent(memberships[0]!.orgId)}`);
  });

  return router;
}

async function providerOr503(get: () => Promise<oidc.Configuration>, ctx: AppContext): Promise<oidc.Configuration> {
  try {
    return await get();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    ctx.log.error({ err: { name: (err as Error).name, message: (err as Error).message } }, 'console: the identity provider could not be reached');
    throw new ApiError(503, 'SSO_UNAVAILABLE', 'Single sign-on is not available: the identity provider could not be reached. Try again, or sign in with an admin key', {
      headers: { 'Retry-After': '30' },
    });
  }
}

/** What failed, for the log: the library's message, its cause's and the provider's error code; never a code or token. */
function refusalReason(err: unknown): Record<string, unknown> {
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

function groupsOf(claim: unknown): string[] {
  if (typeof claim === 'string') return [claim];
  if (Array.isArray(claim)) return claim.filter((g): g is string => typeof g === 'string');
  return [];
}

/** Groups → one membership per organization; the write role wins when groups disagree. */
export function mapGroups(groups: readonly string[], mapping: OidcSettings['groups'], orgExists: (orgId: string) => boolean): Membership[] {
  const roles = new Map<string, ConsoleRole>();
  for (const m of mapping) {
    if (!groups.includes(m.group) || !orgExists(m.orgId)) continue;
    if (roles.get(m.orgId) !== 'write') roles.set(m.orgId, m.role);
  }
  return [...roles].map(([orgId, role]) => ({ orgId, role })).sort((a, b) => a.orgId.localeCompare(b.orgId));
}
