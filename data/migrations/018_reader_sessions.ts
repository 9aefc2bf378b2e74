import type { Migration } from './index.js';

/**
 * Reader sessions of projects with `auth` (issue 40, docs/reader-access.md). The cookie is a
 * sealed payload a replica can open without this table; the row is what lists and revokes a
 * session and what idle expiry is measured on. Only what the session needs: the hash of its id,
 * the method, the user data the site uses (groups, content, apiPlaygroundInputs) and its times —
 * no address, no user agent, no name.
 */
export const readerSessions: Migration = {
  id: 18,
  name: 'reader sessions',
  up: `
    CREATE TABLE reader_sessions (
      id_hash       TEXT PRIMARY KEY,
      project_id    TEXT NOT NULL,
      method        TEXT NOT NULL CHECK (method IN ('jwt', 'oauth', 'password')),
      groups        TEXT NOT NULL,
      content       TEXT NOT NULL,
      api_inputs    TEXT,
      created_at    TEXT NOT NULL,
      last_seen_at  TEXT NOT NULL,
      expires_at    TEXT NOT NULL
    ) STRICT;
    CREATE INDEX reader_sessions_project ON reader_sessions(project_id, last_seen_at);
  `,
};
