import type { Migration } from './index.js';

/**
 * Search analytics (DESIGN 3.3, docs/analytics.md).
 *
 * Raw events are append-only and numbered by `id`, the ingest sequence: a report cursor pins the
 * largest id it saw, and later pages subtract whatever arrived after it. Terms and projects are
 * interned to integers so that ten million rows and their rollups stay small. Session ids are
 * used in memory only (de-duplication, click attribution) and never stored.
 */
export const analytics: Migration = {
  id: 3,
  name: 'search analytics: raw events, term dictionary, daily rollups',
  up: `
    CREATE TABLE search_projects (
      pk          INTEGER PRIMARY KEY,
      project_id  TEXT NOT NULL UNIQUE
    ) STRICT;

    -- One row per normalised term and project, with its all-time totals (kept at ingest): the
    -- report over all time reads the top of (hits DESC, norm) straight from the index.
    CREATE TABLE search_terms (
      id          INTEGER PRIMARY KEY,
      project_pk  INTEGER NOT NULL,
      norm        TEXT NOT NULL,
      hits        INTEGER NOT NULL DEFAULT 0,
      clicked     INTEGER NOT NULL DEFAULT 0,
      last_at_ms  INTEGER,
      UNIQUE (project_pk, norm)
    ) STRICT;
    CREATE INDEX search_terms_rank ON search_terms(project_pk, hits DESC, norm);

    -- kind 0 = counted search, 1 = click. A click that made its search "clicked" has
    -- counts_ctr = 1 and carries that search's time, so the CTR lands on the search's day.
    CREATE TABLE search_events (
      id            INTEGER PRIMARY KEY,
      project_pk    INTEGER NOT NULL,
      kind          INTEGER NOT NULL,
      term_id       INTEGER NOT NULL,
      at_ms         INTEGER NOT NULL,
      result_count  INTEGER,
      path          TEXT,
      counts_ctr    INTEGER NOT NULL DEFAULT 0,
      search_at_ms  INTEGER
    ) STRICT;
    CREATE INDEX search_events_time ON search_events(project_pk, at_ms);
    CREATE INDEX search_events_term ON search_events(project_pk, term_id, at_ms);

    -- Per project, UTC day (days since the epoch) and term. Kept in the same transaction as the
    -- raw rows, so rollups and raw events never disagree.
    CREATE TABLE search_daily (
      project_pk  INTEGER NOT NULL,
      day         INTEGER NOT NULL,
      term_id     INTEGER NOT NULL,
      hits        INTEGER NOT NULL DEFAULT 0,
      clicked     INTEGER NOT NULL DEFAULT 0,
      last_at_ms  INTEGER,
      PRIMARY KEY (project_pk, day, term_id)
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE search_daily_pages (
      project_pk  INTEGER NOT NULL,
      term_id     INTEGER NOT NULL,
      day         INTEGER NOT NULL,
      path        TEXT NOT NULL,
      clicks      INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (project_pk, term_id, day, path)
    ) STRICT, WITHOUT ROWID;

    -- All-time clicks per term and page: the all-time report's topClickedPage is one index seek
    -- instead of a sum over every day's rows of a popular term.
    CREATE TABLE search_term_pages (
      project_pk  INTEGER NOT NULL,
      term_id     INTEGER NOT NULL,
      path        TEXT NOT NULL,
      clicks      INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (project_pk, term_id, path)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX search_term_pages_top ON search_term_pages(project_pk, term_id, clicks DESC, path);

    -- Searches per project and day, for totalSearches without touching the term rows, and a
    -- version bumped by every batch that changes the day's search_daily rows: the report keeps
    -- closed days in memory and reloads a day only when its version moved.
    CREATE TABLE search_daily_totals (
      project_pk  INTEGER NOT NULL,
      day         INTEGER NOT NULL,
      hits        INTEGER NOT NULL DEFAULT 0,
      version     INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (project_pk, day)
    ) STRICT, WITHOUT ROWID;
  `,
};
