import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ReaderAuthConfig } from '../../config/reader-auth.js';
import type { ReaderMethod } from '../../data/stores/reader-sessions.js';
import type { AppContext } from '../context.js';
import { MAX_COOKIE_VALUE, open, readerCookie, seal } from './cookie.js';
import type { SignedUser } from './jwt.js';
import type { ReaderUser } from './types.js';

export type StartResult = { ok: true; cookie: string; maxAgeSeconds: number; sessionId: string } | { ok: false; reason: string };

/**
 * Reader sessions: the sealed cookie (cookie.ts) carries the user data and the absolute end; the
 * row (data/stores/reader-sessions.ts) says the session is still live (not signed out, not
 * revoked) and when it was last used, for idle expiry.
 */
export function createReaderSessions(ctx: Pick<AppContext, 'stores' | 'secrets' | 'clock'>) {
  const idleMs = (auth: ReaderAuthConfig) => auth.session.idleMinutes * 60_000;
  return {
    /** A new session for a reader who just signed in; its end is maxHours away or the user data's expiresAt, whichever is sooner. */
    start(projectId: string, auth: ReaderAuthConfig, method: ReaderMethod, user: SignedUser): StartResult {
      const now = ctx.clock.now().getTime();
      const end = Math.min(now + auth.session.maxHours * 3_600_000, user.expiresAt === null ? Infinity : user.expiresAt * 1000);
      const sid = crypto.randomBytes(32).toString('base64url');
      const cookie = seal(ctx.secrets, projectId, { sid, m: method, g: user.groups, c: user.content, ...(user.apiPlaygroundInputs ? { a: user.apiPlaygroundInputs } : {}), iat: now, exp: end });
      if (cookie.length > MAX_COOKIE_VALUE) return { ok: false, reason: `the user data is too large for a session cookie (${cookie.length} bytes sealed, at most ${MAX_COOKIE_VALUE}): send fewer groups or less content` };
      ctx.stores.readerSessions.create({ id: sid, projectId, method, groups: user.groups, content: user.content, apiPlaygroundInputs: user.apiPlaygroundInputs, expiresAt: new Date(end) });
      return { ok: true, cookie, maxAgeSeconds: Math.ceil((end - now) / 1000), sessionId: sid };
    },
    /** The reader behind the request's cookie, or null: none, not this project's, past its end, idle too long, signed out or revoked. */
    reader(req: IncomingMessage, projectId: string, auth: ReaderAuthConfig): (ReaderUser & { sid: string; method: ReaderMethod }) | null {
      const value = readerCookie(req);
      if (!value) return null;
      const s = open(ctx.secrets, projectId, value);
      if (!s || s.exp <= ctx.clock.now().getTime()) return null;
      if (!ctx.stores.readerSessions.use(s.sid, projectId, idleMs(auth))) return null;
      return { sid: s.sid, method: s.m, groups: s.g, content: s.c, ...(s.a ? { apiPlaygroundInputs: s.a } : {}), expiresAt: Math.floor(s.exp / 1000) };
    },
    /** The session id in the request's cookie for that project, whatever its state (sign-out ends it). */
    sessionIdOf(req: IncomingMessage, projectId: string): string | null {
      const value = readerCookie(req);
      return value ? (open(ctx.secrets, projectId, value)?.sid ?? null) : null;
    },
    end(sid: string): boolean {
      return ctx.stores.readerSessions.end(sid);
    },
  };
}

export type ReaderSessions = ReturnType<typeof createReaderSessions>;
