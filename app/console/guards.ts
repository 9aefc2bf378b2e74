import crypto from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { Stores } from '../../data/stores/index.js';
import { ApiError, errors } from '../errors.js';
import { PRE_SESSION_COOKIE, readCookies, setCookie } from './cookies.js';
import { roleIn, safeEqual } from './session.js';

/**
 * CSRF: every change (POST, PUT, DELETE...) carries the `_csrf` field of the form it came from, or
 * (the editor's JSON API, docs/editor.md) the `X-CSRF-Token` header: the session's token, or before
 * sign-in the double-submit token of the pre-session cookie (SameSite=Strict). A request whose
 * Origin names another site is refused before that.
 */
export function requireCsrf(publicUrl: string | undefined): RequestHandler {
  const publicHost = publicUrl ? new URL(publicUrl).host : undefined;
  return (req, _res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
    const origin = req.get('origin');
    if (origin === 'null') return next(errors.csrfRejected());
    if (origin) {
      let host: string | undefined;
      try {
        host = new URL(origin).host;
      } catch {
        host = undefined;
      }
      // The console's own host as the browser sees it: the Host header, admin.publicUrl, or the
      // X-Forwarded-Host of a proxy that admin.trustProxy trusts (a proxy may rewrite Host).
      const forwarded = req.app.get('trust proxy fn')(req.socket.remoteAddress ?? '', 0) ? req.get('x-forwarded-host') : undefined;
      const own = [req.get('host'), publicHost, forwarded].filter((h): h is string => typeof h === 'string' && h.length > 0);
      if (!host || !own.includes(host)) return next(errors.csrfRejected());
    }
    const field = typeof (req.body as Record<string, unknown> | undefined)?._csrf === 'string' ? String((req.body as Record<string, unknown>)._csrf) : '';
    const sent = field || (req.get('x-csrf-token') ?? '');
    const expected = req.consoleUser?.session.csrfToken ?? readCookies(req).get(PRE_SESSION_COOKIE) ?? '';
    if (!sent || !expected || !safeEqual(sent, expected)) return next(errors.csrfRejected());
    next();
  };
}

/** The token a form shown before sign-in carries; sets its cookie when there is none. */
export function preSessionToken(req: Request, res: Parameters<RequestHandler>[1]): string {
  const existing = readCookies(req).get(PRE_SESSION_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = crypto.randomBytes(32).toString('base64url');
  setCookie(req, res, PRE_SESSION_COOKIE, token, { path: '/console', sameSite: 'Strict' });
  return token;
}

export function requireSignIn(): RequestHandler {
  return (req, _res, next) => next(req.consoleUser ? undefined : errors.signInRequired());
}

/**
 * An organization the signed-in user belongs to, else 404 as for an unknown one (no probing of
 * other organizations' ids). Sets res.locals.org and res.locals.role.
 */
export function orgAccess(stores: Stores): RequestHandler {
  return (req, res, next) => {
    const orgId = String(req.params.orgId);
    const role = roleIn(req.consoleUser, orgId);
    const org = role ? stores.organizations.get(orgId) : undefined;
    if (!role || !org) return next(new ApiError(404, 'ORGANIZATION_NOT_FOUND', 'Organization not found'));
    res.locals.org = org;
    res.locals.role = role;
    next();
  };
}

export function projectAccess(stores: Stores): RequestHandler {
  return (req, res, next) => {
    const project = stores.projects.getForOrg(String(req.params.projectId), res.locals.org.id);
    if (!project) return next(errors.projectNotFound());
    res.locals.project = project;
    next();
  };
}

/** Changes need the write role in the organization (a read key, or an SSO group mapped to read). */
export function requireWrite(): RequestHandler {
  return (_req, res, next) => next(res.locals.role === 'write' ? undefined : errors.writeRoleRequired());
}
