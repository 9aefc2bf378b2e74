import type { IncomingMessage } from 'node:http';
import type { Config } from '../../config/schema.js';
import { hashSessionId, type ReaderMethod } from '../../data/stores/reader-sessions.js';
import type { Stores } from '../../data/stores/index.js';
import type { Clock } from '../clock.js';
import { createLogThrottle } from '../http/log-throttle.js';
import type { Logger } from '../logger.js';
import { open, readerCookie } from '../reader-access/cookie.js';
import { withRedirect } from '../reader-access/redirect.js';
import type { ReaderUser } from '../reader-access/types.js';
import type { Secrets } from '../secrets.js';
import type { FollowedReaderAccess } from './upstream-routes.js';

/**
 * How often a replica asks the publisher which sessions ended and reports the ones it served:
 * the bound on how late a revocation, a sign-out or an idle expiry reaches it (docs/reader-access.md).
 */
export const SESSION_SYNC_MS = 5_000;
/** A session's last seen is reported at most this often, as the publisher's own touch moves it. */
const REPORT_EVERY_MS = 60_000;
/** Pages of the journal read per round: a replica far behind catches up over a few rounds, never in one unbounded loop. */
const MAX_PAGES_PER_ROUND = 10;
/** Sessions whose last-seen waits in memory; past it the oldest waiting report is dropped. */
const MAX_PENDING = 10_000;

interface Pending {
  projectId: string;
  at: number;
}

/** What one answer of `GET /v1/replica/reader-sessions/ended` must look like; anything else is refused whole. */
function parseEnded(body: unknown): { ended: Array<{ id: string; projectId: string; expiresAt: string }>; cursor: number; more: boolean } | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const b = body as Record<string, unknown>;
  if (!Array.isArray(b.ended) || !Number.isSafeInteger(b.cursor) || (b.cursor as number) < 0 || typeof b.more !== 'boolean') return undefined;
  const ended: Array<{ id: string; projectId: string; expiresAt: string }> = [];
  for (const e of b.ended as unknown[]) {
    const r = e as Record<string, unknown> | null;
    if (!r || typeof r.id !== 'string' || !/^[0-9a-f]{64}$/.test(r.id) || typeof r.projectId !== 'string' || typeof r.expiresAt !== 'string' || Number.isNaN(Date.parse(r.expiresAt))) return undefined;
    ended.push({ id: r.id, projectId: r.projectId, expiresAt: new Date(r.expiresAt).toISOString() });
  }
  return { ended, cursor: b.cursor as number, more: b.more };
}

/**
 * Reader sessions on a serving replica (issue 40): the cookie is opened with the same
 * `reader-session` key file and its absolute end enforced, as on the publisher; a session the
 * publisher said ended (the deny set, on disk) is refused; and the sessions served here are
 * reported upstream so the publisher's idle expiry counts reads on every replica.
 */
export function createReplicaReaderSessions(deps: { config: () => Readonly<Config>; stores: Stores; secrets: Secrets; clock: Clock; log: Logger; key: () => string | undefined }) {
  const log = deps.log.child({ feature: 'replica' });
  const throttle = createLogThrottle(log);
  const denied = deps.stores.replicaDeniedSessions;
  let followed = new Map<string, FollowedReaderAccess>();
  /** Reports waiting to go upstream, and when each session was last reported (once a minute). */
  const pending = new Map<string, Pending>();
  const reportedAt = new Map<string, number>();
  let lastSyncAt: string | null = null;
  let lastError: string | null = null;
  let controller = new AbortController();
  let loop: Promise<void> | undefined;
  let round: Promise<void> | undefined;

  const base = () => deps.config().replica.upstreamUrl!.replace(/\/+$/, '');
  const headers = (): Record<string, string> => {
    const key = deps.key();
    if (!key) throw new Error(`no replica key: set the environment variable ${deps.config().replica.keyEnv}`);
    return { authorization: `Bearer ${key}` };
  };

  function noteSeen(idHash: string, projectId: string, at: number): void {
    const last = reportedAt.get(idHash);
    if (last !== undefined && at - last < REPORT_EVERY_MS) return;
    reportedAt.set(idHash, at);
    pending.delete(idHash);
    pending.set(idHash, { projectId, at });
    if (pending.size > MAX_PENDING) pending.delete(pending.keys().next().value!);
  }

  async function report(signal: AbortSignal): Promise<void> {
    if (pending.size === 0) return;
    const batch = [...pending.entries()].slice(0, 1000);
    const res = await fetch(`${base()}/v1/replica/reader-sessions/seen`, {
      method: 'POST',
      headers: { ...headers(), 'content-type': 'application/json' },
      body: JSON.stringify({ seen: batch.map(([id, p]) => ({ id, projectId: p.projectId, at: new Date(p.at).toISOString() })) }),
      signal: AbortSignal.any([signal, AbortSignal.timeout(10_000)]),
    });
    await res.body?.cancel();
    if (res.status !== 204) throw new Error(`the publisher answered ${res.status} to POST /v1/replica/reader-sessions/seen`);
    // Only what was sent, and only if no newer report of it came in meanwhile.
    for (const [id, p] of batch) if (pending.get(id) === p) pending.delete(id);
  }

  async function fetchEnded(signal: AbortSignal): Promise<void> {
    for (let page = 0; page < MAX_PAGES_PER_ROUND; page++) {
      const res = await fetch(`${base()}/v1/replica/reader-sessions/ended?after=${denied.cursor()}`, { headers: headers(), signal: AbortSignal.any([signal, AbortSignal.timeout(10_000)]) });
      if (res.status !== 200) {
        await res.body?.cancel();
        throw new Error(`the publisher answered ${res.status} to GET /v1/replica/reader-sessions/ended`);
      }
      let body: unknown;
      try {
        body = await res.json();
      } catch {
        body = undefined;
      }
      const answer = parseEnded(body);
      // Refused whole: the deny set and the cursor stay as they were, and the next round asks again.
      if (!answer) throw new Error('the publisher’s list of ended reader sessions is malformed; kept the deny set as it was');
      denied.apply(answer.ended, answer.cursor);
      if (!answer.more) break;
    }
    denied.prune();
    const now = deps.clock.now().getTime();
    for (const [id, at] of reportedAt) if (now - at > REPORT_EVERY_MS) reportedAt.delete(id);
  }

  async function syncOnce(signal: AbortSignal): Promise<void> {
    try {
      // Reports first: the publisher then sweeps idle sessions knowing about the reads here.
      await report(signal);
      await fetchEnded(signal);
      lastSyncAt = new Date().toISOString();
      lastError = null;
    } catch (err) {
      if (!signal.aborted) lastError = (err as Error).message;
      throw err;
    }
  }

  async function run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await (round = syncOnce(signal));
      } catch (err) {
        if (signal.aborted) return;
        throttle.warn('reader-sessions-sync', { err: (err as Error).message, denied: denied.count() }, 'replica: cannot read ended reader sessions from the publisher; the deny set kept is enforced and this is retried');
      } finally {
        round = undefined;
      }
      await new Promise((resolve) => setTimeout(resolve, SESSION_SYNC_MS).unref());
    }
  }

  return {
    /** The followed projects with reader access, from the publisher's site list. */
    setFollowed(sites: Array<{ projectId: string; readerAccess?: FollowedReaderAccess }>): void {
      followed = new Map(sites.filter((s) => s.readerAccess).map((s) => [s.projectId, s.readerAccess!]));
    },
    enabled: (projectId: string) => followed.has(projectId),
    signInUrl(projectId: string, wanted: string): string | undefined {
      const f = followed.get(projectId);
      if (!f) return undefined;
      return f.loginUrl ? withRedirect(f.loginUrl, wanted) : `/login?redirect=${encodeURIComponent(wanted)}`;
    },
    /** The reader behind the cookie for a followed project, or null: none, not this project's, past its end, or ended upstream. */
    reader(req: IncomingMessage, projectId: string): (ReaderUser & { sid: string; method: ReaderMethod }) | null {
      if (!followed.has(projectId)) return null;
      const value = readerCookie(req);
      if (!value) return null;
      const s = open(deps.secrets, projectId, value);
      const now = deps.clock.now().getTime();
      if (!s || s.exp <= now) return null;
      const idHash = hashSessionId(s.sid);
      if (denied.denied(idHash)) return null;
      noteSeen(idHash, projectId, now);
      return { sid: s.sid, method: s.m, groups: s.g, content: s.c, ...(s.a ? { apiPlaygroundInputs: s.a } : {}), expiresAt: Math.floor(s.exp / 1000) };
    },
    status: () => ({ lastSyncAt, lastError, denied: denied.count(), pendingReports: pending.size }),
    /** One round now (tests, and the first one at start). */
    async sync(): Promise<void> {
      await round?.catch(() => undefined);
      await syncOnce(controller.signal);
    },
    start(): void {
      controller = new AbortController();
      loop = run(controller.signal);
    },
    async stop(): Promise<void> {
      controller.abort();
      await loop;
    },
  };
}

export type ReplicaReaderSessions = ReturnType<typeof createReplicaReaderSessions>;
