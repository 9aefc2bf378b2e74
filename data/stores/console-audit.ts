import type { Db } from '../db.js';

export interface AuditEntry {
  id: number;
  at: string;
  orgId: string;
  /** Who: "key key_… (mint_AbC…)" or the signed-in user's name. */
  actor: string;
  /** What: a dotted verb such as `key.create`, `export.start`, `agent.archive`. */
  action: string;
  /** The object acted on (a key id, a job id, a project id). */
  target: string;
  detail: Record<string, unknown> | null;
}

interface Row {
  id: number;
  at: string;
  org_id: string;
  actor: string;
  action: string;
  target: string;
  detail: string | null;
}

const toEntry = (r: Row): AuditEntry => ({
  id: r.id,
  at: r.at,
  orgId: r.org_id,
  actor: r.actor,
  action: r.action,
  target: r.target,
  detail: r.detail ? (JSON.parse(r.detail) as Record<string, unknown>) : null,
});

/** The audit log of console changes: append-only (nothing updates or deletes a row). */
export function createConsoleAuditStore(db: Db, now: () => Date) {
  const insert = db.prepare('INSERT INTO console_audit (at, org_id, actor, action, target, detail) VALUES (?, ?, ?, ?, ?, ?)');
  const countOrg = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM console_audit WHERE org_id = ?');
  const countAll = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM console_audit');
  const pageOrg = db.prepare<[string, number, number], Row>('SELECT * FROM console_audit WHERE org_id = ? ORDER BY id DESC LIMIT ? OFFSET ?');
  const pageAsc = db.prepare<[string, number, number], Row>('SELECT * FROM console_audit WHERE org_id = ? ORDER BY id ASC LIMIT ? OFFSET ?');
  const pageAll = db.prepare<[number, number], Row>('SELECT * FROM console_audit ORDER BY id DESC LIMIT ? OFFSET ?');

  return {
    record(e: { orgId: string; actor: string; action: string; target: string; detail?: Record<string, unknown> | null }): AuditEntry {
      const at = now().toISOString();
      const info = insert.run(at, e.orgId, e.actor, e.action, e.target, e.detail ? JSON.stringify(e.detail) : null);
      return { id: Number(info.lastInsertRowid), at, orgId: e.orgId, actor: e.actor, action: e.action, target: e.target, detail: e.detail ?? null };
    },
    count(orgId?: string): number {
      return (orgId ? countOrg.get(orgId) : countAll.get())!.n;
    },
    /** Newest first (or oldest first with `ascending`), one page. */
    page(opts: { orgId?: string | undefined; limit: number; offset: number; ascending?: boolean }): AuditEntry[] {
      const rows = opts.orgId
        ? (opts.ascending ? pageAsc : pageOrg).all(opts.orgId, opts.limit, opts.offset)
        : pageAll.all(opts.limit, opts.offset);
      return rows.map(toEntry);
    },
  };
}

export type ConsoleAuditStore = ReturnType<typeof createConsoleAuditStore>;
