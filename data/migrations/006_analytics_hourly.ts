import type { Migration } from './index.js';

/**
 * Hourly rollups for search analytics (issue 6, docs/analytics.md "Performance").
 *
 * A report whose range does not start or end at UTC midnight read the partial days at its edges
 * from raw events: about 330,000 rows per edge at ten million events, 370 ms per report. With
 * rollups per hour, a partial day is whole hours (kept in memory by the report as versioned
 * vectors, like whole days) plus at most one partial hour from raw events at each end.
 *
 * `search_hourly` holds, per project, UTC hour (hours since the epoch) and term: hits, clicked
 * (on the hour of the search, as in `search_daily`) and the last search; `search_hourly_pages`
 * the clicks per hour, term and page (topClickedPage of a page's terms in a partial day: one
 * range of whole hours instead of a scan of the day's raw events, measured 22 ms per page at ten
 * million events). Both are keyed hour first: events arrive in time order, so a batch appends
 * to the end of the tables instead of dirtying pages all over them (keyed term first, the pages
 * table cost the 10 M import about 16 s more CPU in the writing thread). `search_hourly_totals`
 * carries the version each batch that changes an hour bumps.
 *
 * Existing raw events (those within the raw retention) are folded in here, so a database
 * upgraded with events already stored answers partial edges exactly as before.
 */
export const analyticsHourly: Migration = {
  id: 6,
  name: 'search analytics: hourly rollups for ranges with partial days',
  up: `
    CREATE TABLE search_hourly (
      project_pk  INTEGER NOT NULL,
      hour        INTEGER NOT NULL,
      term_id     INTEGER NOT NULL,
      hits        INTEGER NOT NULL DEFAULT 0,
      clicked     INTEGER NOT NULL DEFAULT 0,
      last_at_ms  INTEGER,
      PRIMARY KEY (project_pk, hour, term_id)
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE search_hourly_pages (
      project_pk  INTEGER NOT NULL,
      hour        INTEGER NOT NULL,
      term_id     INTEGER NOT NULL,
      path        TEXT NOT NULL,
      clicks      INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (project_pk, hour, term_id, path)
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE search_hourly_totals (
      project_pk  INTEGER NOT NULL,
      hour        INTEGER NOT NULL,
      version     INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (project_pk, hour)
    ) STRICT, WITHOUT ROWID;

    -- Floor division (SQLite's / truncates toward zero; times before 1970 are valid input).
    INSERT INTO search_hourly (project_pk, hour, term_id, hits, clicked, last_at_ms)
    SELECT project_pk, hour, term_id, sum(h), sum(c), max(l) FROM (
      SELECT project_pk, (at_ms - ((at_ms % 3600000) + 3600000) % 3600000) / 3600000 AS hour, term_id, 1 AS h, 0 AS c, at_ms AS l
        FROM search_events WHERE kind = 0
      UNION ALL
      SELECT project_pk, (search_at_ms - ((search_at_ms % 3600000) + 3600000) % 3600000) / 3600000, term_id, 0, 1, NULL
        FROM search_events WHERE kind = 1 AND counts_ctr = 1 AND search_at_ms IS NOT NULL
    ) GROUP BY project_pk, hour, term_id;

    INSERT INTO search_hourly_pages (project_pk, hour, term_id, path, clicks)
    SELECT project_pk, (at_ms - ((at_ms % 3600000) + 3600000) % 3600000) / 3600000 AS hour, term_id, path, count(*)
      FROM search_events WHERE kind = 1 AND path IS NOT NULL GROUP BY project_pk, hour, term_id, path;

    INSERT INTO search_hourly_totals (project_pk, hour, version)
    SELECT DISTINCT project_pk, hour, 1 FROM search_hourly;
  `,
};
