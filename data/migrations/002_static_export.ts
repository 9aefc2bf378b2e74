import type { Migration } from './index.js';

export const staticExport: Migration = {
  id: 2,
  name: 'static export jobs',
  up: `
    -- One row per export job. The row is the queue: the runner claims the oldest 'queued' row.
    -- Rows are never deleted; retention removes the files and sets files_deleted_at.
    CREATE TABLE export_jobs (
      id                TEXT PRIMARY KEY,
      org_id            TEXT NOT NULL REFERENCES organizations(id),
      project_id        TEXT NOT NULL REFERENCES projects(id),
      domain            TEXT NOT NULL,
      -- What the client asked for (NULL: the default), and what the export was labelled with.
      requested_version TEXT,
      version           TEXT,
      paths             TEXT,
      status            TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
      progress          REAL NOT NULL DEFAULT 0 CHECK (progress >= 0 AND progress <= 100),
      page_count        INTEGER NOT NULL DEFAULT 0,
      error             TEXT,
      -- Times the job was started; a job found 'running' at start-up was interrupted.
      attempts          INTEGER NOT NULL DEFAULT 0,
      size_bytes        INTEGER,
      created_at        TEXT NOT NULL,
      updated_at        TEXT NOT NULL,
      started_at        TEXT,
      finished_at       TEXT,
      files_deleted_at  TEXT
    ) STRICT;
    CREATE INDEX export_jobs_queue ON export_jobs(status, created_at);
  `,
};
