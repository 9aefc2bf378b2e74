import crypto from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Config } from '../../config/schema.js';
import type { ConsoleRole, ConsoleSession, Membership } from '../../data/stores/console-sessions.js';
import type { Stores } from '../../data/stores/index.js';
import { readCookies, SESSION_COOKIE, setCookie } from './cookies.js';

export interface ConsoleIdentity {
  sessionId: string;
  session: ConsoleSession;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Set by loadSession for a signed-in console user. */
      consoleUser?: ConsoleIdentity;
    }
  }
}

type ConsoleSettings = Readonly<Config['console']>;

/**
 * Finds the session of the request's cookie. A key session ends the moment its key is revoked or
 * expires, whichever path revoked it (console, CLI): the key is re-checked on every request
 * rather than relying on each revoke path to end sessions.
 */
export function loadSession(stores: Stores, settings: () => ConsoleSettings, now: () => Date): RequestHandler {
  return (req, res, next) => {
    const id = readCookies(req).get(SESSION_COOKIE);
    if (!id) return next();
    const session = stores.consoleSessions.use(id, settings().idleMinutes * 60_000);
    if (!session) {
      clearSessionCookie(req, res);
      return next();
    }
    if (session.keyId && !keyStillValid(stores, session.keyId, now())) {
      stores.consoleSessions.end(id);
      clearSessionCookie(req, res);
      return next();
    }
    req.consoleUser = { sessionId: id, session };
    next();
  };
}

function keyStillValid(stores: Stores, keyId: string, at: Date): boolean {
  const key = stores.adminKeys.get(keyId);
  if (!key || key.revokedAt) return false;
  return !key.expiresAt || Date.parse(key.expiresAt) > at.getTime();
}

export function startSession(
  req: Request,
  res: Response,
  stores: Stores,
  settings: ConsoleSettings,
  input: { kind: 'key' | 'oidc'; subject: string; displayName: string; keyId?: string; memberships: Membership[] },
): void {
  // A session fixed before sign-in is never reused: the old one (if any) ends, a new id is issued.
  const old = readCookies(req).get(SESSION_COOKIE);
  if (old) stores.consoleSessions.end(old);
  const id = stores.consoleSessions.create({ ...input, absoluteMs: settings.absoluteHours * 3_600_000 });
  setCookie(req, res, SESSION_COOKIE, id, { path: '/console', sameSite: 'Strict' });
}

export function clearSessionCookie(req: Request, res: Response): void {
  setCookie(req, res, SESSION_COOKIE, '', { path: '/console', sameSite: 'Strict', maxAge: 0 });
}

export function roleIn(identity: ConsoleIdentity | undefined, orgId: string): ConsoleRole | undefined {
  return identity?.session.memberships.find((m) => m.orgId === orgId)?.role;
}

export const safeEqual = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
};
