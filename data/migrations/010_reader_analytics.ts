import type { Migration } from './index.js';

/**
 * Reader analytics (issue 20, docs/analytics.md "Reader analytics"): page views, unique visitors
 * and page feedback. Projects are the `search_projects` pks, paths interned in `page_paths`.
 *
 * No IP address, user agent or cookie is stored. A visitor is a 48-bit hash of (daily salt, IP,
 * user agent, project); the salt lives in `settings` for its UTC day only and is replaced (the
 * old one discarded) on the first view of the next day, so hashes of different days cannot be
 * linked and a visitor counts once per day: a range reports the sum of daily unique visitors.
 *
 * A partial day at the edge of a report's range is whole hours from `page_hourly` plus at most
 * an hour of raw rows at each end; a daily unique visitor counts in the hour of its first view
 * of the day (`page_views.counted`), so every part is a sum.
 *
 * `page_daily` holds per project, UTC day and path the views and that day's unique visitors,
 * human and AI, with `path_id` 0 for the whole site (site-wide visitors are not the sum of the
 * paths'). It is maintained at ingest in the same transaction as the raw rows. Which visitor
 * a day already counted on which path is kept in memory by the writer and rebuilt from the
 * day's raw views after a restart (no extra row per view).
 * `page_day_totals.version` moves with every batch that changes a day, so the report keeps
 * closed days in memory and reloads one only when it changed.
 */
export const readerAnalytics: Migration = {
  id: 10,
  name: 'reader analytics: page views, daily visitors, page feedback',
  up: `
    CREATE TABLE page_paths (
      id          INTEGER PRIMARY KEY,
      project_pk  INTEGER NOT NULL,
      path        TEXT NOT NULL,
      UNIQUE (project_pk, path)
    ) STRICT;

    -- ai: 0 = human (the page's beacon), 1 = AI agent (counted by the site listener).
    -- counted: which daily-unique counters this view started (its visitor's first view of the
    -- day): 1/2/4 = the path's human/AI/total, 8/16/32 = the site's. A partial hour of a report
    -- is then sums over its raw rows, never a count(DISTINCT).
    CREATE TABLE page_views (
      id          INTEGER PRIMARY KEY,
      project_pk  INTEGER NOT NULL,
      at_ms       INTEGER NOT NULL,
      path_id     INTEGER NOT NULL,
      ai          INTEGER NOT NULL,
      visitor     INTEGER NOT NULL,
      counted     INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX page_views_time ON page_views(project_pk, at_ms);

    CREATE TABLE page_daily (
      project_pk      INTEGER NOT NULL,
      day             INTEGER NOT NULL,
      path_id         INTEGER NOT NULL,
      views_human     INTEGER NOT NULL DEFAULT 0,
      views_ai        INTEGER NOT NULL DEFAULT 0,
      visitors_human  INTEGER NOT NULL DEFAULT 0,
      visitors_ai     INTEGER NOT NULL DEFAULT 0,
      visitors_total  INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (project_pk, day, path_id)
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE page_day_totals (
      project_pk  INTEGER NOT NULL,
      day         INTEGER NOT NULL,
      version     INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (project_pk, day)
    ) STRICT, WITHOUT ROWID;

    -- The same per UTC hour (hours since the epoch): a daily unique visitor counts in the hour of
    -- its first view that day, so whole hours of a partial day are sums, like whole days.
    CREATE TABLE page_hourly (
      project_pk      INTEGER NOT NULL,
      hour            INTEGER NOT NULL,
      path_id         INTEGER NOT NULL,
      views_human     INTEGER NOT NULL DEFAULT 0,
      views_ai        INTEGER NOT NULL DEFAULT 0,
      visitors_human  INTEGER NOT NULL DEFAULT 0,
      visitors_ai     INTEGER NOT NULL DEFAULT 0,
      visitors_total  INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (project_pk, hour, path_id)
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE page_hour_totals (
      project_pk  INTEGER NOT NULL,
      hour        INTEGER NOT NULL,
      version     INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (project_pk, hour)
    ) STRICT, WITHOUT ROWID;

    -- public_id: the id readers' browsers chose for the vote (a later comment upgrades the same
    -- row instead of counting twice) and the id the report shows.
    CREATE TABLE page_feedback (
      id              INTEGER PRIMARY KEY,
      project_pk      INTEGER NOT NULL,
      public_id       TEXT NOT NULL,
      created_ms      INTEGER NOT NULL,
      path            TEXT NOT NULL,
      source          TEXT NOT NULL CHECK (source IN ('code_snippet', 'contextual', 'agent', 'thumbs_only')),
      helpful         INTEGER,
      reason          TEXT,
      comment         TEXT,
      code            TEXT,
      filename        TEXT,
      lang            TEXT,
      status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'in_progress', 'resolved', 'dismissed')),
      status_at_ms    INTEGER,
      seq             INTEGER NOT NULL DEFAULT 0,
      UNIQUE (project_pk, public_id)
    ) STRICT;
    CREATE INDEX page_feedback_time ON page_feedback(project_pk, created_ms, id);

    -- seq: the table's change sequence, set by every insert and change (whichever process made
    -- it: the server, the CLI, the console), so the by-page report's in-memory index reads only
    -- the rows changed since it last looked.
    CREATE INDEX page_feedback_seq ON page_feedback(seq);
    CREATE TRIGGER page_feedback_seq_insert AFTER INSERT ON page_feedback BEGIN
      UPDATE page_feedback SET seq = (SELECT coalesce(max(seq), 0) + 1 FROM page_feedback) WHERE id = NEW.id;
    END;
    CREATE TRIGGER page_feedback_seq_update AFTER UPDATE OF path, source, helpful, status, created_ms ON page_feedback BEGIN
      UPDATE page_feedback SET seq = (SELECT coalesce(max(seq), 0) + 1 FROM page_feedback) WHERE id = NEW.id;
    END;
  `,
};
