import type { Migration } from './index.js';

/**
 * Publishing (issue 19): one row per publish, preview deployment or rollback (the hosted
 * update-status record), the webhook deliveries already acted on (replay protection), and the
 * live previews (host name, expiry).
 */
export const publish: Migration = {
  id: 9,
  name: 'publishes, webhook deliveries, previews',
  up: `
    CREATE TABLE publishes (
      id              TEXT PRIMARY KEY,
      project_id      TEXT NOT NULL REFERENCES projects(id),
      -- publish: the branch becomes the project's site; preview: a branch at a host of its own;
      -- rollback: a kept version becomes the site again.
      kind            TEXT NOT NULL CHECK (kind IN ('publish', 'preview', 'rollback')),
      -- What asked for it: api, cli, poll, console, webhook:gitea, webhook:gitlab, webhook:github, start.
      trigger         TEXT NOT NULL,
      branch          TEXT,
      status          TEXT NOT NULL CHECK (status IN ('queued', 'in_progress', 'success', 'failure')),
      commit_sha      TEXT,
      commit_message  TEXT,
      commit_author   TEXT,
      files_changed   TEXT,
      version         TEXT,
      preview_host    TEXT,
      summary         TEXT,
      logs            TEXT NOT NULL DEFAULT '[]',
      created_at      TEXT NOT NULL,
      started_at      TEXT,
      ended_at        TEXT,
      duration_ms     INTEGER
    ) STRICT;
    CREATE INDEX publishes_project ON publishes(project_id, created_at);

    CREATE TABLE webhook_deliveries (
      project_id   TEXT NOT NULL,
      delivery_id  TEXT NOT NULL,
      received_at  TEXT NOT NULL,
      PRIMARY KEY (project_id, delivery_id)
    ) STRICT;

    CREATE TABLE previews (
      host        TEXT PRIMARY KEY,
      project_id  TEXT NOT NULL REFERENCES projects(id),
      branch      TEXT NOT NULL,
      dir         TEXT NOT NULL,
      version     TEXT NOT NULL,
      expires_at  TEXT NOT NULL
    ) STRICT;
  `,
};
