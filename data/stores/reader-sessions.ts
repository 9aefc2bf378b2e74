import crypto from 'node:crypto';
import type { Db } from '../db.js';

export type ReaderMethod = 'jwt' | 'oauth' | 'password';

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
  const remove = db.prepare('DELETE FROM reader_sessions WHERE id_hash = ?');
  const removeIn = db.prepare('DELETE FROM reader_sessions WHERE id_hash = ? AND project_id = ?');
  const active = db.prepare<[string, string, string, number], Row>(
    'SELECT * FROM reader_sessions WHERE project_id = ? AND expires_at > ? AND last_seen_at > ? ORDER BY last_seen_at DESC LIMIT ?',
  );
  const pruneExpired = db.prepare('DELETE FROM reader_sessions WHERE expires_at <= ?');
  const pruneIdle = db.prepare('DELETE FROM reader_sessions WHERE project_id = ? AND last_seen_at <= ?');
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
        remove.run(h);
        return undefined;
      }
      if (t - Date.parse(row.last_seen_at) > TOUCH_EVERY_MS) touch.run(new Date(t).toISOString(), h);
      return toSession(row);
    },
    /** Sign-out: by the cookie's session id. */
    end(id: string): boolean {
      return remove.run(hashSessionId(id)).changes > 0;
    },
    /** The console's list of a project's live sessions, most recently used first. */
    listActive(projectId: string, idleMs: number, limit = 200): ReaderSessionRow[] {
      const t = now().getTime();
      return active.all(projectId, new Date(t).toISOString(), new Date(t - idleMs).toISOString(), limit).map(toSession);
    },
    /** The console's revoke: by the listed id (the hash), only within the project. */
    revoke(projectId: string, idHash: string): boolean {
      return removeIn.run(idHash, projectId).changes > 0;
    },
    /** Drop sessions past their end (cron). */
    pruneExpired(): number {
      return pruneExpired.run(now().toISOString()).changes;
    },
    /** Drop a project's sessions idle longer than its idleMs (cron). */
    pruneIdle(projectId: string, idleMs: number): number {
      return pruneIdle.run(projectId, new Date(now().getTime() - idleMs).toISOString()).changes;
    },
  };
}

export type ReaderSessionStore = ReturnType<typeof createReaderSessionStore>;
