import crypto from 'node:crypto';
import type { Db } from '../db.js';

export type ReaderMethod = 'jwt' | 'oauth' | 'password';

/** Why a session ended before its absolute end: what replicas are told (reader_session_ends). */
export type SessionEndReason = 'revoked' | 'signed-out' | 'idle';

/** One entry of the ended-sessions journal (migration 019). */
export interface SessionEnd {
  seq: number;
  /** The session id's SHA-256, as the row was keyed. */
  id: string;
  projectId: string;
  reason: SessionEndReason;
  /** The session's absolute end: past it the entry is not needed (every replica enforces that end). */
  expiresAt: string;
}

export interface ReaderSessionRow {
  /** SHA-256 of the session id: what the console lists and revokes by (the id itself is only in the cookie). */
  id: string;
  projectId: string;
  method: ReaderMethod;
  groups: string[];
  content: Record<string, unknown>;
  apiPlaygroundInputs: Record<string, unknown> | null;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
}

interface Row {
  id_hash: string;
  project_id: string;
  method: ReaderMethod;
  groups: string;
  content: string;
  api_inputs: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

const toSession = (r: Row): ReaderSessionRow => ({
  id: r.id_hash,
  projectId: r.project_id,
  method: r.method,
  groups: JSON.parse(r.groups) as string[],
  content: JSON.parse(r.content) as Record<string, unknown>,
  apiPlaygroundInputs: r.api_inputs === null ? null : (JSON.parse(r.api_inputs) as Record<string, unknown>),
  createdAt: r.created_at,
  lastSeenAt: r.last_seen_at,
  expiresAt: r.expires_at,
});

export const hashSessionId = (id: string): string => crypto.createHash('sha256').update(id).digest('hex');

/** Last-seen moves at most this often: a reader paging through docs is not a write per request. */
const TOUCH_EVERY_MS = 60_000;

/** Reader sessions (migration 018). */
export function createReaderSessionStore(db: Db, now: () => Date) {
  const insert = db.prepare(
    `INSERT INTO reader_sessions (id_hash, project_id, method, groups, content, api_inputs, created_at, last_seen_at, expires_at)
     VALUES (@idHash, @projectId, @method, @groups, @content, @apiInputs, @now, @now, @expiresAt)`,
  );
  const get = db.prepare<[string], Row>('SELECT * FROM reader_sessions WHERE id_hash = ?');
  const touch = db.prepare('UPDATE reader_sessions SET last_seen_at = ? WHERE id_hash = ?');
  const remove = db.prepare<[string], Row>('DELETE FROM reader_sessions WHERE id_hash = ? RETURNING *');
  const removeIn = db.prepare<[string, string], Row>('DELETE FROM reader_sessions WHERE id_hash = ? AND project_id = ? RETURNING *');
  const journal = db.prepare('INSERT INTO reader_session_ends (id_hash, project_id, reason, expires_at, ended_at) VALUES (?, ?, ?, ?, ?)');
  const endsAfter = db.prepare<[number, number], { seq: number; id_hash: string; project_id: string; reason: SessionEndReason; expires_at: string }>(
    'SELECT seq, id_hash, project_id, reason, expires_at FROM reader_session_ends WHERE seq > ? ORDER BY seq LIMIT ?',
  );
  const lastEnd = db.prepare<[], { seq: number | null }>('SELECT MAX(seq) AS seq FROM reader_session_ends');
  const pruneEnds = db.prepare('DELETE FROM reader_session_ends WHERE expires_at <= ?');
  const seenAt = db.prepare('UPDATE reader_sessions SET last_seen_at = @at WHERE id_hash = @idHash AND project_id = @projectId AND last_seen_at < @at AND last_seen_at > @idleBefore');
  /** Delete a row and, when it ended before its absolute end, journal it for replicas. */
  const endRow = (row: Row | undefined, reason: SessionEndReason): boolean => {
    if (!row) return false;
    const t = now();
    if (Date.parse(row.expires_at) > t.getTime()) journal.run(row.id_hash, row.project_id, reason, row.expires_at, t.toISOString());
    return true;
  };
  const active = db.prepare<[string, string, string, number], Row>(
    'SELECT * FROM reader_sessions WHERE project_id = ? AND expires_at > ? AND last_seen_at > ? ORDER BY last_seen_at DESC LIMIT ?',
  );
  const pruneExpired = db.prepare('DELETE FROM reader_sessions WHERE expires_at <= ?');
  const pruneIdle = db.prepare<[string, string], Row>('DELETE FROM reader_sessions WHERE project_id = ? AND last_seen_at <= ? RETURNING *');
  return {
    create(input: { id: string; projectId: string; method: ReaderMethod; groups: string[]; content: Record<string, unknown>; apiPlaygroundInputs?: object | undefined; expiresAt: Date }): void {
      insert.run({
        idHash: hashSessionId(input.id),
        projectId: input.projectId,
        method: input.method,
        groups: JSON.stringify(input.groups),
        content: JSON.stringify(input.content),
        apiInputs: input.apiPlaygroundInputs ? JSON.stringify(input.apiPlaygroundInputs) : null,
        now: now().toISOString(),
        expiresAt: input.expiresAt.toISOString(),
      });
    },
    /**
     * The live session of that id in that project, or undefined: unknown (revoked, signed out), past
     * its end, or idle longer than idleMs (such a row is deleted).
     */
    use(id: string, projectId: string, idleMs: number): ReaderSessionRow | undefined {
      const h = hashSessionId(id);
      const row = get.get(h);
      if (!row || row.project_id !== projectId) return undefined;
      const t = now().getTime();
      if (Date.parse(row.expires_at) <= t || Date.parse(row.last_seen_at) + idleMs <= t) {
        db.transaction(() => endRow(remove.get(h), 'idle'))();
        return undefined;
      }
      if (t - Date.parse(row.last_seen_at) > TOUCH_EVERY_MS) touch.run(new Date(t).toISOString(), h);
      return toSession(row);
    },
    /** Sign-out: by the cookie's session id. */
    end(id: string): boolean {
      return db.transaction(() => endRow(remove.get(hashSessionId(id)), 'signed-out'))();
    },
    /** The console's list of a project's live sessions, most recently used first. */
    listActive(projectId: string, idleMs: number, limit = 200): ReaderSessionRow[] {
      const t = now().getTime();
      return active.all(projectId, new Date(t).toISOString(), new Date(t - idleMs).toISOString(), limit).map(toSession);
    },
    /** The console's revoke: by the listed id (the hash), only within the project. */
    revoke(projectId: string, idHash: string): boolean {
      return db.transaction(() => endRow(removeIn.get(idHash, projectId), 'revoked'))();
    },
    /** Drop sessions past their end (cron). */
    pruneExpired(): number {
      const t = now().toISOString();
      pruneEnds.run(t);
      return pruneExpired.run(t).changes;
    },
    /** Drop a project's sessions idle longer than its idleMs (cron). */
    pruneIdle(projectId: string, idleMs: number): number {
      return db.transaction(() => pruneIdle.all(projectId, new Date(now().getTime() - idleMs).toISOString()).filter((row) => endRow(row, 'idle')).length)();
    },
    /**
     * A replica's report that it served the session at `at`: last seen moves forward only, and
     * only for a row of that project that was still live then. A read after the session had gone
     * idle (the replica had not heard yet) does not bring it back: an ended session stays ended.
     */
    seenOnReplica(idHash: string, projectId: string, at: Date, idleMs: number): void {
      seenAt.run({ at: at.toISOString(), idHash, projectId, idleBefore: new Date(at.getTime() - idleMs).toISOString() });
    },
    /** Sessions that ended before their absolute end, after journal number `after`, oldest first. */
    endedAfter(after: number, limit: number): SessionEnd[] {
      return endsAfter.all(after, limit).map((r) => ({ seq: r.seq, id: r.id_hash, projectId: r.project_id, reason: r.reason, expiresAt: r.expires_at }));
    },
    /** The journal's last number (0 when empty). */
    lastEndSeq(): number {
      return lastEnd.get()?.seq ?? 0;
    },
  };
}

export type ReaderSessionStore = ReturnType<typeof createReaderSessionStore>;
