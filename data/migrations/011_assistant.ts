import type { Migration } from './index.js';

/**
 * The readers' assistant (issue 21): assistant keys (`mint_dsc_…`, one project each, only their
 * hash kept), and conversations. A turn is one question and its answer; nothing identifies the
 * reader (no address, cookie or caller fingerprint is stored), as for other reader analytics.
 */
export const assistant: Migration = {
  id: 11,
  name: 'assistant: keys, threads and turns',
  up: `
    CREATE TABLE assistant_keys (
      id          TEXT PRIMARY KEY,
      project_id  TEXT NOT NULL,
      key_hash    TEXT NOT NULL UNIQUE,
      prefix      TEXT NOT NULL,
      label       TEXT,
      created_at  TEXT NOT NULL,
      expires_at  TEXT,
      revoked_at  TEXT
    ) STRICT;

    CREATE TABLE assistant_threads (
      id          TEXT PRIMARY KEY,
      project_id  TEXT NOT NULL,
      created_at  TEXT NOT NULL
    ) STRICT;

    CREATE TABLE assistant_turns (
      id          TEXT PRIMARY KEY,
      thread_id   TEXT NOT NULL REFERENCES assistant_threads(id) ON DELETE CASCADE,
      project_id  TEXT NOT NULL,
      caller      TEXT NOT NULL CHECK (caller IN ('web', 'api', 'other')),
      asked_at    TEXT NOT NULL,
      answered_at TEXT NOT NULL,
      query       TEXT NOT NULL,
      response    TEXT NOT NULL,
      sources     TEXT NOT NULL,
      resolution  TEXT NOT NULL CHECK (resolution IN ('answered', 'unanswered')),
      page_url    TEXT
    ) STRICT;
    CREATE INDEX assistant_turns_project ON assistant_turns (project_id, id);
    CREATE INDEX assistant_turns_thread ON assistant_turns (thread_id, id);
  `,
};
