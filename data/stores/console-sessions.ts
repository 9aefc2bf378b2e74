import crypto from 'node:crypto';
import type { Db } from '../db.js';

export type ConsoleRole = 'read' | 'write';
export interface Membership {
  orgId: string;
  role: ConsoleRole;
}

export interface ConsoleSession {
  kind: 'key' | 'oidc';
  /** The admin key id, or the provider's `sub`. */
  subject: string;
  /** Who the audit log names: the key's id and prefix, or the user's e-mail/name. */
  displayName: string;
  keyId: string | null;
  memberships: Membership[];
  csrfToken: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
}

interface Row {
  id_hash: string;
  kind: 'key' | 'oidc';
  subject: string;
  display_name: string;
  key_id: string | null;
  memberships: string;
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

const toSession = (r: Row): ConsoleSession => ({
  kind: r.kind,
  subject: r.subject,
  displayName: r.display_name,
  keyId: r.key_id,
  memberships: JSON.parse(r.memberships) as Membership[],
  csrfToken: r.csrf_token,
  createdAt: r.created_at,
  lastSeenAt: r.last_seen_at,
  expiresAt: r.expires_at,
});

const hashId = (id: string) => crypto.createHash('sha256').update(id).digest('hex');

/** Console sessions. The cookie value (256 random bits) is never stored, only its hash. */
export function createConsoleSessionStore(db: Db, now: () => Date) {
  const insert = db.prepare(
    `INSERT INTO console_sessions (id_hash, kind, subject, display_name, key_id, memberships, csrf_token, created_at, last_seen_at, expires_at)
     VALUES (@idHash, @kind, @subject, @displayName, @keyId, @memberships, @csrfToken, @now, @now, @expiresAt)`,
  );
  const get = db.prepare<[string], Row>('SELECT * FROM console_sessions WHERE id_hash = ?');
  const touch = db.prepare('UPDATE console_sessions SET last_seen_at = ? WHERE id_hash = ?');
  const remove = db.prepare('DELETE FROM console_sessions WHERE id_hash = ?');
  const removeForKey = db.prepare('DELETE FROM console_sessions WHERE key_id = ?');
  const prune = db.prepare('DELETE FROM console_sessions WHERE expires_at <= ? OR last_seen_at <= ?');

  return {
    /** A new session; returns the cookie value (shown to the browser only). */
    create(input: { kind: 'key' | 'oidc'; subject: string; displayName: string; keyId?: string | null; memberships: Membership[]; absoluteMs: number }): string {
      const id = crypto.randomBytes(32).toString('base64url');
      const at = now();
      insert.run({
        idHash: hashId(id),
        kind: input.kind,
        subject: input.subject,
        displayName: input.displayName,
        keyId: input.keyId ?? null,
        memberships: JSON.stringify(input.memberships),
        csrfToken: crypto.randomBytes(32).toString('base64url'),
        now: at.toISOString(),
        expiresAt: new Date(at.getTime() + input.absoluteMs).toISOString(),
      });
      return id;
    },
    /**
     * The live session for a cookie value, or undefined (unknown, past its absolute expiry, or idle
     * longer than idleMs: such a row is deleted). Last-seen moves at most once a minute.
     */
    use(id: string, idleMs: number): ConsoleSession | undefined {
      const h = hashId(id);
      const row = get.get(h);
      if (!row) return undefined;
      const t = now().getTime();
      if (Date.parse(row.expires_at) <= t || Date.parse(row.last_seen_at) + idleMs <= t) {
        remove.run(h);
        return undefined;
      }
      if (t - Date.parse(row.last_seen_at) > 60_000) touch.run(new Date(t).toISOString(), h);
      return toSession(row);
    },
    end(id: string): void {
      remove.run(hashId(id));
    },
    /** Every session signed in with this admin key (on revocation). */
    endForKey(keyId: string): number {
      return removeForKey.run(keyId).changes;
    },
    /** Drop sessions past either expiry (cron). */
    prune(idleMs: number): number {
      const t = now().getTime();
      return prune.run(new Date(t).toISOString(), new Date(t - idleMs).toISOString()).changes;
    },
  };
}

export type ConsoleSessionStore = ReturnType<typeof createConsoleSessionStore>;
