import type { Db } from '../db.js';
import type { SettingsStore } from './settings.js';

/** Where the replica keeps the last journal number it applied (settings table). */
const CURSOR_KEY = 'replica.readerSessionEndsCursor';

/**
 * A serving replica's deny set (migration 019): reader sessions the publisher said ended before
 * their absolute end (revoked, signed out, idle), refused here until that end. Kept on disk with
 * the journal number it was read up to, so a restart neither forgets nor asks for everything again.
 */
export function createReplicaDeniedSessionStore(db: Db, now: () => Date, settings: SettingsStore) {
  const insert = db.prepare('INSERT INTO replica_denied_sessions (id_hash, project_id, expires_at) VALUES (?, ?, ?) ON CONFLICT(id_hash) DO NOTHING');
  const has = db.prepare<[string], { one: number }>('SELECT 1 AS one FROM replica_denied_sessions WHERE id_hash = ?');
  const prune = db.prepare('DELETE FROM replica_denied_sessions WHERE expires_at <= ?');
  const count = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM replica_denied_sessions');
  return {
    /** Add what one answer of the publisher listed and move the cursor, in one transaction (all or nothing). */
    apply(entries: Array<{ id: string; projectId: string; expiresAt: string }>, cursor: number): void {
      db.transaction(() => {
        const t = now().getTime();
        for (const e of entries) if (Date.parse(e.expiresAt) > t) insert.run(e.id, e.projectId, e.expiresAt);
        settings.set(CURSOR_KEY, String(cursor));
      })();
    },
    denied(idHash: string): boolean {
      return has.get(idHash) !== undefined;
    },
    /** Add one session now (a sign-out answered by this replica), before the publisher lists it. */
    deny(idHash: string, projectId: string, expiresAt: string): void {
      insert.run(idHash, projectId, expiresAt);
    },
    cursor(): number {
      const v = Number(settings.get(CURSOR_KEY) ?? 0);
      return Number.isSafeInteger(v) && v >= 0 ? v : 0;
    },
    /** Drop entries past their session's absolute end: the cookie's own end refuses them now. */
    prune(): number {
      return prune.run(now().toISOString()).changes;
    },
    count(): number {
      return count.get()!.n;
    },
  };
}

export type ReplicaDeniedSessionStore = ReturnType<typeof createReplicaDeniedSessionStore>;
