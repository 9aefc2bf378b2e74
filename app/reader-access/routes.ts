import express, { Router, type Request, type Response, type NextFunction } from 'express';
import { hashSessionId, type ReaderMethod } from '../../data/stores/reader-sessions.js';
import type { AppContext } from '../context.js';
import { ApiError, errors } from '../errors.js';
import { authorizationUrl, createFlowStore, exchangeCode, FLOW_TTL_MS, refusalReason } from '../http/oidc-flow.js';
import { rateLimit } from '../http/rate-limit.js';
import { requestOrigin } from '../http/request-origin.js';
import { siteCsp } from '../site/site-csp.js';
import { readCookies, setCookie } from '../console/cookies.js';
import { clearReaderCookie, setReaderCookie } from './cookie.js';
import { verifyHandoff, type SignedUser } from './jwt.js';
import { expectsIdToken, providerConfiguration, scopeOf, userAfterGrant, type OauthSettings } from './oauth.js';
import { chooserPage, failedPage, JWT_CALLBACK_SCRIPT, jwtCallbackPage, passwordPage, signInStrings, themeInitScript } from './pages.js';
import { siteLook, type SiteLook } from './site-look.js';
import { verifyPassword } from './password.js';
import { safeRedirect, withRedirect } from './redirect.js';
import type { AuthedProject, ReaderAccessService } from './service.js';

/** Password attempts per project and client address in PASSWORD_WINDOW_MS. */
export const PASSWORD_ATTEMPTS = 10;
const PASSWORD_WINDOW_MS = 15 * 60_000;
/** OAuth starts and callbacks per client address in that window (each costs a provider round trip). */
const OAUTH_ATTEMPTS = 60;
const OAUTH_COOKIE = 'da_reader_oauth';

declare module 'express-serve-static-core' {
  interface Request {
    readerProject?: AuthedProject;
  }
}

/**
 * The routes reader access owns on the site listener (common40: /login, /login/jwt-callback,
 * /login/oauth-callback, /logout, /_/reader/*), answered only for a site whose project has
 * `auth`; every other request passes through untouched.
 */
export function createReaderRouter(ctx: AppContext, service: ReaderAccessService, projectFor: (req: Request) => string | undefined, siteFor: (req: Request) => { root: string } | undefined = () => undefined): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '32kb' });
  const flows = createFlowStore<{ projectId: string; redirect: string }>(ctx.clock);
  const providers = new Map<string, { settings: OauthSettings; get: ReturnType<typeof providerConfiguration> }>();

  const provider = (projectId: string, settings: OauthSettings) => {
    let p = providers.get(projectId);
    // A reload that changed the settings makes a new configuration.
    if (!p || p.settings !== settings) providers.set(projectId, (p = { settings, get: providerConfiguration(settings) }));
    return p.get;
  };

  const userAnswer = (res: Response, r: ReturnType<ReaderAccessService['access']['reader']>) => {
    res.set({ 'Cache-Control': 'private, no-store', Vary: 'Cookie' });
    res.json(r ? { signedIn: true, groups: r.groups, content: r.content, apiPlaygroundInputs: r.apiPlaygroundInputs ?? {} } : { signedIn: false, groups: [], content: {}, apiPlaygroundInputs: {} });
  };

  // A serving replica knows a followed project's reader access from the publisher's list only
  // (no secret of it): it answers /_/reader/user; sign-in and sign-out are the publisher's routes.
  router.get('/_/reader/user', (req, res, next) => {
    const projectId = projectFor(req);
    if (!service.followedWithAccess(projectId)) return next();
    userAnswer(res, service.access.reader(req, projectId!));
  });

  router.use(['/login', '/logout', '/_/reader'], (req, _res, next) => {
    const authed = service.authed(projectFor(req));
    if (!authed) return next('router');
    req.readerProject = authed;
    next();
  });

  /** The served site's name, colours, logo and language, for the pages below. */
  const look = (req: Request): SiteLook => siteLook(siteFor(req), req.readerProject!.project.name);
  const words = (req: Request) => signInStrings(look(req));

  const html = (req: Request, res: Response, status: number, body: string) => {
    res.status(status).set({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'private, no-store',
      'Content-Security-Policy': siteCsp(service.config(), req.readerProject!.project.id),
      'X-Content-Type-Options': 'nosniff',
      // Not no-referrer: with it a browser sends `Origin: null` on the pages' own form posts (Fetch,
      // "append a request Origin header"), which the login-CSRF check below must refuse.
      'Referrer-Policy': 'same-origin',
    });
    res.send(body);
  };

  /** A sign-in form posted from another site would sign the reader into someone else's session (login CSRF). */
  const sameOrigin = (req: Request): void => {
    const origin = req.get('origin');
    if (origin && origin !== 'null' && origin !== requestOrigin(req, 'localhost')) throw errors.forbidden('CROSS_SITE_SIGN_IN', 'Sign-in forms are accepted from this site only');
    if (origin === 'null' || req.get('sec-fetch-site') === 'cross-site') throw errors.forbidden('CROSS_SITE_SIGN_IN', 'Sign-in forms are accepted from this site only');
  };

  const signIn = (req: Request, res: Response, method: ReaderMethod, user: SignedUser, redirect: string): void => {
    const { project, auth } = req.readerProject!;
    const started = service.sessions.start(project.id, auth, method, user);
    if (!started.ok) {
      ctx.log.warn({ reqId: req.id, project: project.id, method, reason: started.reason }, 'reader sign-in refused');
      return html(req, res, 400, failedPage(look(req), started.reason));
    }
    setReaderCookie(req, res, started.cookie, started.maxAgeSeconds);
    const entry = ctx.stores.consoleAudit.record({ orgId: project.orgId, actor: `reader (${method})`, action: 'reader.sign-in', target: project.id, detail: { projectId: project.id, method, session: sessionTag(started.sessionId), groups: user.groups } });
    ctx.log.info({ reqId: req.id, audit: entry.id, project: project.id, method }, 'reader signed in');
    res.redirect(303, redirect);
  };

  router.get('/login', async (req, res) => {
    const { project, auth } = req.readerProject!;
    const redirect = safeRedirect(req.query.redirect);
    if (auth.method === 'password') return html(req, res, 200, passwordPage(look(req), redirect));
    if (auth.method === 'jwt') {
      const jwt = auth.jwt!;
      if (jwt.loginUrl) return res.redirect(302, withRedirect(jwt.loginUrl, redirect));
      return html(req, res, 200, chooserPage(look(req), jwt.loginUrls!.map((l) => ({ name: l.name, href: withRedirect(l.url, redirect) }))));
    }
    oauthLimited(req, res);
    const settings = auth.oauth!;
    const config = await reachable(ctx, () => provider(project.id, settings)());
    const { id, flow } = flows.begin({ projectId: project.id, redirect });
    setCookie(req, res, OAUTH_COOKIE, id, { path: '/login/oauth-callback', sameSite: 'Lax', maxAge: FLOW_TTL_MS / 1000 });
    const url = await authorizationUrl(config, flow, { redirectUri: oauthRedirectUri(req, settings), scope: scopeOf(settings), params: settings.authorizationParams, nonce: expectsIdToken(settings) });
    res.redirect(303, url.href);
  });

  const passwordLimit = rateLimit({
    store: ctx.stores.rateLimits,
    key: (req) => `reader-password:${req.readerProject!.project.id}:${req.ip ?? 'unknown'}`,
    limit: PASSWORD_ATTEMPTS,
    windowMs: PASSWORD_WINDOW_MS,
  });

  router.post('/login', form, (req, res, next) => {
    if (req.readerProject!.auth.method !== 'password') return next(errors.routeNotFound('POST', '/login'));
    sameOrigin(req);
    passwordLimit(req, res, next);
  }, async (req, res) => {
    const { project, auth } = req.readerProject!;
    const body = (req.body ?? {}) as Record<string, unknown>;
    const redirect = safeRedirect(body.redirect);
    const hash = auth.password!.hash ?? process.env[auth.password!.hashEnv!];
    if (!hash) throw new ApiError(503, 'READER_SIGN_IN_MISCONFIGURED', `Sign-in is not available: the environment variable ${auth.password!.hashEnv} is not set`);
    const password = typeof body.password === 'string' ? body.password : '';
    if (password && password.length <= 1024 && (await verifyPassword(password, hash))) return signIn(req, res, 'password', { groups: [], content: {}, expiresAt: null }, redirect);
    ctx.stores.consoleAudit.record({ orgId: project.orgId, actor: 'reader (password)', action: 'reader.sign-in-failed', target: project.id, detail: { projectId: project.id, method: 'password' } });
    html(req, res, 401, passwordPage(look(req), redirect, words(req).wrongPassword));
  });

  router.get('/login/jwt-callback', (req, res) => {
    const { project, auth } = req.readerProject!;
    if (auth.method !== 'jwt') throw errors.routeNotFound('GET', '/login/jwt-callback');
    html(req, res, 200, jwtCallbackPage(look(req), safeRedirect(req.query.redirect)));
  });

  router.post('/login/jwt-callback', form, (req, res) => {
    const { project, auth } = req.readerProject!;
    if (auth.method !== 'jwt') throw errors.routeNotFound('POST', '/login/jwt-callback');
    sameOrigin(req);
    const token = (req.body as Record<string, unknown> | undefined)?.token;
    const result = typeof token === 'string' ? verifyHandoff(token, service.keyOf(project.id)!, req.hostname, ctx.clock.now().getTime()) : { ok: false as const, reason: 'no token' };
    if (!result.ok) {
      ctx.log.warn({ reqId: req.id, project: project.id, reason: result.reason }, 'reader JWT handoff refused');
      return html(req, res, 401, failedPage(look(req), words(req).tokenRefused));
    }
    signIn(req, res, 'jwt', result.user, safeRedirect(req.query.redirect));
  });

  router.get('/login/oauth-callback', async (req, res) => {
    const { project, auth } = req.readerProject!;
    if (auth.method !== 'oauth') throw errors.routeNotFound('GET', '/login/oauth-callback');
    oauthLimited(req, res);
    const settings = auth.oauth!;
    const flow = flows.take(readCookies(req).get(OAUTH_COOKIE));
    setCookie(req, res, OAUTH_COOKIE, '', { path: '/login/oauth-callback', sameSite: 'Lax', maxAge: 0 });
    if (!flow || flow.extra.projectId !== project.id) return html(req, res, 401, failedPage(look(req), words(req).attemptUnknown));
    const config = await reachable(ctx, () => provider(project.id, settings)());
    const current = new URL(oauthRedirectUri(req, settings));
    current.search = new URL(req.originalUrl, 'http://x').search;
    let user: SignedUser;
    try {
      const tokens = await exchangeCode(config, flow, current, expectsIdToken(settings));
      user = await userAfterGrant(settings, tokens);
    } catch (err) {
      ctx.log.warn({ reqId: req.id, project: project.id, reason: refusalReason(err) }, 'reader OAuth sign-in refused');
      return html(req, res, 401, failedPage(look(req), words(req).providerRefused));
    }
    signIn(req, res, 'oauth', user, flow.extra.redirect);
  });

  const logout = (req: Request, res: Response) => {
    const { project, auth } = req.readerProject!;
    const sid = service.sessions.sessionIdOf(req, project.id);
    if (sid && service.sessions.end(sid)) {
      const entry = ctx.stores.consoleAudit.record({ orgId: project.orgId, actor: 'reader', action: 'reader.sign-out', target: project.id, detail: { projectId: project.id, session: sessionTag(sid) } });
      ctx.log.info({ reqId: req.id, audit: entry.id, project: project.id }, 'reader signed out');
    }
    clearReaderCookie(req, res);
    res.set('Cache-Control', 'private, no-store');
    res.redirect(302, auth.oauth?.logoutUrl ?? '/login');
  };
  router.get('/logout', logout);
  router.post('/logout', logout);

  router.get('/_/reader/user', (req, res) => {
    userAnswer(res, service.access.reader(req, req.readerProject!.project.id));
  });

  router.get('/_/reader/theme.js', (_req, res) => {
    res.set({ 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff' }).send(themeInitScript());
  });

  router.get('/_/reader/jwt-callback.js', (_req, res) => {
    res.set({ 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=300', 'X-Content-Type-Options': 'nosniff' }).send(JWT_CALLBACK_SCRIPT);
  });

  const oauthLimit = rateLimit({ store: ctx.stores.rateLimits, key: (req) => `reader-oauth:${req.ip ?? 'unknown'}`, limit: OAUTH_ATTEMPTS, windowMs: PASSWORD_WINDOW_MS });
  function oauthLimited(req: Request, res: Response): void {
    let failure: unknown;
    oauthLimit(req, res, (err?: unknown) => {
      failure = err;
    });
    if (failure) throw failure;
  }

  // The site app's own error handler answers 500 to everything: ours say what happened.
  router.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (!req.readerProject) return next(err);
    const e = err instanceof ApiError ? err : undefined;
    if (!e) {
      ctx.log.error({ reqId: req.id, err }, 'reader sign-in error');
      return html(req, res, 500, failedPage(look(req), words(req).somethingWrong));
    }
    res.set(e.headers);
    if (e.status === 404) return res.status(404).type('text/plain').send('Not found\n');
    html(req, res, e.status, failedPage(look(req), e.message));
  });

  return router;
}

/** The audit log's handle on a session: a prefix of the hash the console lists it by. */
const sessionTag = (sid: string): string => hashSessionId(sid).slice(0, 12);

function oauthRedirectUri(req: Request, settings: OauthSettings): string {
  return settings.redirectUrl ?? `${requestOrigin(req, 'localhost')}/login/oauth-callback`;
}

async function reachable<T>(ctx: AppContext, get: () => Promise<T>): Promise<T> {
  try {
    return await get();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    ctx.log.error({ err: { name: (err as Error).name, message: (err as Error).message } }, 'reader sign-in: the identity provider could not be reached');
    throw new ApiError(503, 'READER_SIGN_IN_UNAVAILABLE', 'Sign-in is not available: the identity provider could not be reached. Try again shortly', { headers: { 'Retry-After': '30' } });
  }
}
