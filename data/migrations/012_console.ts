import type { Migration } from './index.js';

/**
 * The admin console (issue 22): server-side sessions and the audit log of console changes.
 * A session row is found by the SHA-256 of its cookie value, so a copy of the database hands out
 * no usable session. `memberships` is a JSON array of {orgId, role}: one entry for a key sign-in,
 * the mapped groups for single sign-on.
 */
export const consoleTables: Migration = {
  id: 12,
  name: 'console: sessions and audit log',
  up: `
    CREATE TABLE console_sessions (
      id_hash       TEXT PRIMARY KEY,
      kind          TEXT NOT NULL CHECK (kind IN ('key', 'oidc')),
      subject       TEXT NOT NULL,
      display_name  TEXT NOT NULL,
      key_id        TEXT,
      memberships   TEXT NOT NULL,
      csrf_token    TEXT NOT NULL,
      created_at    TEXT NOT NULL,
      last_seen_at  TEXT NOT NULL,
      expires_at    TEXT NOT NULL
    ) STRICT;
    CREATE INDEX console_sessions_key ON console_sessions(key_id);

    CREATE TABLE console_audit (
      id          INTEGER PRIMARY KEY,
      at          TEXT NOT NULL,
      org_id      TEXT NOT NULL,
      actor       TEXT NOT NULL,
      action      TEXT NOT NULL,
      target      TEXT NOT NULL,
      detail      TEXT
    ) STRICT;
    CREATE INDEX console_audit_org ON console_audit(org_id, id);
  `,
};
