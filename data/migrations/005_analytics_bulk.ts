import type { Migration } from './index.js';

/**
 * Search analytics at ten million events (issue 6's targets, docs/analytics.md "Performance").
 * Three indexes of 003 cost more at ingest than they saved in the report, measured on a
 * one-million-event import:
 *
 * - `search_events_term` (project, term, time) took an entry at a random place per raw event:
 *   every batch dirtied a leaf page per distinct term, so each commit rewrote most of the index
 *   into the WAL (raw inserts 19 µs → 6.6 µs per event without it). Its readers (top page and
 *   last search over partial days) now scan the time index of the edge once per page.
 * - `search_terms_rank` (hits DESC, norm) moved an entry on every change of a term's hits
 *   (about 5 µs per term per batch). The all-time ranking is kept in memory by the report
 *   instead, loaded from `search_terms` and advanced by the events stored since.
 * - `search_term_pages_top` moved likewise on every click; a term's pages are read by its
 *   primary key and the best chosen in code.
 *
 * And the time index now covers what the partial-day scans read (kind, term): a partial day is
 * hundreds of thousands of raw rows at ten million events, and without it each was also a
 * table lookup. Entries are appended in time order, so the wider entry costs ingest little.
 */
export const analyticsBulk: Migration = {
  id: 5,
  name: 'search analytics: drop indexes that cost more at ingest than they save; a covering time index',
  up: `
    DROP INDEX IF EXISTS search_events_term;
    DROP INDEX IF EXISTS search_terms_rank;
    DROP INDEX IF EXISTS search_term_pages_top;
    DROP INDEX IF EXISTS search_events_time;
    CREATE INDEX search_events_time ON search_events(project_pk, at_ms, kind, term_id);
  `,
};
