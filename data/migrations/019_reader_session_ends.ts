import type { Migration } from './index.js';

/**
 * Reader sessions on serving replicas (issue 40, docs/reader-access.md "Replicas").
 *
 * `reader_session_ends`, on the publisher: a journal of sessions that ended before their
 * absolute end (revoked, signed out, idle), numbered so a replica asks for what ended after the
 * last number it saw. A session past its absolute end needs no entry (the cookie carries that end
 * and every replica enforces it), so an entry is kept only until that end.
 *
 * `replica_denied_sessions`, on a replica: the ended sessions it was told about, refused until
 * their absolute end; on disk so a restarted replica does not let a revoked cookie back in.
 */
export const readerSessionEnds: Migration = {
  id: 19,
  name: 'reader session ends',
  up: `
    CREATE TABLE reader_session_ends (
      seq         INTEGER PRIMARY KEY AUTOINCREMENT,
      id_hash     TEXT NOT NULL,
      project_id  TEXT NOT NULL,
      reason      TEXT NOT NULL CHECK (reason IN ('revoked', 'signed-out', 'idle')),
      expires_at  TEXT NOT NULL,
      ended_at    TEXT NOT NULL
    ) STRICT;
    CREATE INDEX reader_session_ends_expiry ON reader_session_ends(expires_at);
    CREATE TABLE replica_denied_sessions (
      id_hash     TEXT PRIMARY KEY,
      project_id  TEXT NOT NULL,
      expires_at  TEXT NOT NULL
    ) STRICT;
    CREATE INDEX replica_denied_sessions_expiry ON replica_denied_sessions(expires_at);
  `,
};
