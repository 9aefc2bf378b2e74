import type { Migration } from './index.js';

export const foundation: Migration = {
  id: 1,
  name: 'organizations, projects, admin keys, rate limits',
  up: `
    CREATE TABLE organizations (
      id          TEXT PRIMARY KEY,
      name        TEXT NOT NULL,
      plan        TEXT NOT NULL CHECK (plan IN ('free', 'pro', 'enterprise')),
      created_at  TEXT NOT NULL
    ) STRICT;

    CREATE TABLE projects (
      id          TEXT PRIMARY KEY,
      org_id      TEXT NOT NULL REFERENCES organizations(id),
      name        TEXT NOT NULL,
      domain      TEXT NOT NULL COLLATE NOCASE UNIQUE,
      source_dir  TEXT NOT NULL,
      repository  TEXT,
      branch      TEXT,
      git_host    TEXT,
      created_at  TEXT NOT NULL
    ) STRICT;
    CREATE INDEX projects_org ON projects(org_id);

    CREATE TABLE admin_keys (
      id          TEXT PRIMARY KEY,
      org_id      TEXT NOT NULL REFERENCES organizations(id),
      key_hash    TEXT NOT NULL UNIQUE,
      prefix      TEXT NOT NULL,
      scopes      TEXT NOT NULL,
      label       TEXT,
      created_at  TEXT NOT NULL,
      expires_at  TEXT,
      revoked_at  TEXT,
      last_used_at TEXT
    ) STRICT;

    -- Sliding-window rate limits: one row per counted request, pruned as the window moves.
    CREATE TABLE rate_limit_hits (
      bucket  TEXT NOT NULL,
      at_ms   INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX rate_limit_hits_bucket ON rate_limit_hits(bucket, at_ms);

    -- Small key/value state that must survive restarts (last cron runs, active site pointer...).
    CREATE TABLE settings (
      key    TEXT PRIMARY KEY,
      value  TEXT NOT NULL
    ) STRICT;
  `,
};
