import { Router, type Request } from 'express';
import * as oidc from 'openid-client';
import type { Config } from '../../config/schema.js';
import type { ConsoleRole, Membership } from '../../data/stores/console-sessions.js';
import type { AppContext } from '../context.js';
import { ApiError, errors } from '../errors.js';
import { authorizationUrl, createFlowStore, exchangeCode, FLOW_TTL_MS, lazyConfiguration, refusalReason } from '../http/oidc-flow.js';
import { requestOrigin } from '../http/request-origin.js';
import { readCookies, setCookie, SSO_COOKIE } from './cookies.js';
import { startSession } from './session.js';

type OidcSettings = NonNullable<Config['console']['oidc']>;

/**
 * OpenID Connect sign-in (authorization code flow with PKCE, state and nonce) through
 * openid-client (the flow shared with reader sign-in: app/http/oidc-flow.ts). The attempt's cookie
 * must survive the provider's cross-site redirect back (SameSite=Lax).
 */
export function createSsoRouter(ctx: AppContext, settings: OidcSettings, deps: { rateLimited: (req: Request) => void }): Router {
  const router = Router();
  const flows = createFlowStore<undefined>(ctx.clock);
  const configuration = lazyConfiguration(async () => {
    const secret = settings.clientSecretEnv ? process.env[settings.clientSecretEnv] : undefined;
    if (settings.clientSecretEnv && !secret) throw new ApiError(503, 'SSO_MISCONFIGURED', `Single sign-on is not available: the environment variable ${settings.clientSecretEnv} is not set`);
    return oidc.discovery(new URL(settings.issuer), settings.clientId, secret, secret ? undefined : oidc.None(), {
      execute: settings.allowHttp ? [oidc.allowInsecureRequests] : [],
      timeout: 10,
    });
  });

  const redirectUri = (req: Request): string =>
    settings.redirectUrl ?? `${(ctx.config.admin.publicUrl ?? requestOrigin(req, `localhost:${ctx.config.admin.port}`)).replace(/\/+$/, '')}/console/sso/callback`;

  router.get('/console/sso/start', async (req, res) => {
    deps.rateLimited(req);
    const config = await providerOr503(configuration, ctx);
    const { id, flow } = flows.begin(undefined);
    setCookie(req, res, SSO_COOKIE, id, { path: '/console/sso', sameSite: 'Lax', maxAge: FLOW_TTL_MS / 1000 });
    const url = await authorizationUrl(config, flow, { redirectUri: redirectUri(req), scope: settings.scopes });
    res.redirect(303, url.href);
  });

  router.get('/console/sso/callback', async (req, res) => {
    deps.rateLimited(req);
    const flow = flows.take(readCookies(req).get(SSO_COOKIE));
    setCookie(req, res, SSO_COOKIE, '', { path: '/console/sso', sameSite: 'Lax', maxAge: 0 });
    if (!flow) {
      throw errors.signInFailed('This sign-in attempt is unknown, already used or expired; start again');
    }
    const config = await providerOr503(configuration, ctx);
    const current = new URL(redirectUri(req));
    current.search = new URL(req.originalUrl, 'http://x').search;
    let claims: Record<string, unknown>;
    try {
      const tokens = await exchangeCode(config, flow, current, true);
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
