import type { Db } from '../db.js';

export interface DeltaRow {
  kind: 0 | 1;
  termId: number;
  atMs: number;
  countsCtr: number;
  searchAtMs: number | null;
  path: string | null;
}

/** A day's or an hour's rollup rows as columns (term id, hits, clicked, last search). */
export interface RollupColumns {
  termIds: Int32Array;
  hits: Int32Array;
  clicked: Int32Array;
  lastAt: Float64Array;
}

function asColumns(rows: readonly [number, number, number, number | null][]): RollupColumns {
  const n = rows.length;
  const out: RollupColumns = { termIds: new Int32Array(n), hits: new Int32Array(n), clicked: new Int32Array(n), lastAt: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    const r = rows[i]!;
    out.termIds[i] = r[0];
    out.hits[i] = r[1];
    out.clicked[i] = r[2];
    out.lastAt[i] = r[3] ?? -Infinity;
  }
  return out;
}

/**
 * The read side of search analytics. Every query takes `maxId`, the ingest sequence a report is
 * pinned to; raw rows above it are invisible, and rollup rows (which already hold them) are
 * corrected with `eventsAfter`.
 */
export function createSearchReportStore(db: Db) {
  const pkSel = db.prepare<[string], { pk: number }>('SELECT pk FROM search_projects WHERE project_id = ?');
  const maxIdSel = db.prepare<[], { m: number | null }>('SELECT max(id) AS m FROM search_events');
  // Read per day and summed in JS over dense term ids: no temp b-tree, no join per row.
  const fullDays = db
    .prepare<[number, number, number], [number, number, number, number | null]>(
      'SELECT term_id, hits, clicked, last_at_ms FROM search_daily WHERE project_pk = ? AND day >= ? AND day < ?',
    )
    .raw();
  const dayVersions = db
    .prepare<[number, number, number], [number, number]>('SELECT day, version FROM search_daily_totals WHERE project_pk = ? AND day >= ? AND day < ?')
    .raw();
  const hourRows = db
    .prepare<[number, number], [number, number, number, number | null]>(
      'SELECT term_id, hits, clicked, last_at_ms FROM search_hourly WHERE project_pk = ? AND hour = ?',
    )
    .raw();
  const hourVersions = db
    .prepare<[number, number, number], [number, number]>('SELECT hour, version FROM search_hourly_totals WHERE project_pk = ? AND hour >= ? AND hour < ?')
    .raw();
  const normsAfter = db.prepare<[number], [number, string]>('SELECT id, norm FROM search_terms WHERE id > ? ORDER BY id').raw();
  // Rows, not a GROUP BY: summed by the caller into arrays indexed by term id (no temp b-tree).
  const rawSearches = db
    .prepare<[number, number, number, number], [number, number]>(
      'SELECT term_id, at_ms FROM search_events WHERE project_pk = ? AND at_ms >= ? AND at_ms < ? AND kind = 0 AND id <= ?',
    )
    .raw();
  // Clicks count for the day of the search they are attributed to: at most the click window
  // after it, or the skew before it (beacons racing).
  const rawClicked = db
    .prepare<[number, number, number, number, number, number], [number, number]>(
      `SELECT term_id, count(*) FROM search_events
       WHERE project_pk = ? AND at_ms >= ? AND at_ms < ? AND kind = 1 AND counts_ctr = 1
         AND search_at_ms >= ? AND search_at_ms < ? AND id <= ? GROUP BY term_id`,
    )
    .raw();
  const dayTotals = db.prepare<[number, number, number], { n: number | null }>(
    'SELECT sum(hits) AS n FROM search_daily_totals WHERE project_pk = ? AND day >= ? AND day < ?',
  );
  const after = db
    .prepare<[number, number], [0 | 1, number, number, number, number | null, string | null]>(
      'SELECT kind, term_id, at_ms, counts_ctr, search_at_ms, path FROM search_events WHERE id > ? AND project_pk = ?',
    )
    .raw();
  // Every term's all-time totals: the report loads its in-memory all-time ranking from this.
  // `+project_pk`: a sequential scan of the table, not 100,000 lookups in the (project, norm)
  // index's order (measured 260 ms against ~30 ms at 100,000 terms).
  const termTotals = db
    .prepare<[number], [number, number, number, number | null]>('SELECT id, hits, clicked, last_at_ms FROM search_terms WHERE +project_pk = ? AND hits > 0')
    .raw();
  const eventsBetween = db
    .prepare<[number, number, number], [0 | 1, number, number, number, number | null, string | null]>(
      'SELECT kind, term_id, at_ms, counts_ctr, search_at_ms, path FROM search_events WHERE id > ? AND id <= ? AND project_pk = ?',
    )
    .raw();
  const eventIdentity = db.prepare<[number], [number, number, number]>('SELECT at_ms, kind, term_id FROM search_events WHERE id = ?').raw();
  const pagesDays = db
    .prepare<[number, number, number, number], [string, number]>(
      'SELECT path, sum(clicks) FROM search_daily_pages WHERE project_pk = ? AND term_id = ? AND day >= ? AND day < ? GROUP BY path',
    )
    .raw();
  // Whole hours' clicks of one page's terms: one range of hours (the table is keyed hour first,
  // so ingest appends), the term filter checked on each row.
  const pagesHoursOf = db
    .prepare<[number, number, number, string], [number, string, number]>(
      'SELECT term_id, path, clicks FROM search_hourly_pages WHERE project_pk = ? AND hour >= ? AND hour < ? AND term_id IN (SELECT value FROM json_each(?))',
    )
    .raw();
  // Clicks of a partial hour for the terms of one page only: the kind and term filters are
  // checked on the covering time index's entries, so only those terms' clicks are looked up in
  // the table (for path).
  const clicksRawOf = db
    .prepare<[number, number, number, string, number], [number, string]>(
      `SELECT term_id, path FROM search_events INDEXED BY search_events_time
       WHERE project_pk = ? AND at_ms >= ? AND at_ms < ? AND kind = 1 AND term_id IN (SELECT value FROM json_each(?)) AND id <= ?`,
    )
    .raw();
  const termPages = db.prepare<[number, number], [string, number]>('SELECT path, clicks FROM search_term_pages WHERE project_pk = ? AND term_id = ?').raw();
  // Walks the time index backwards from the end of the range to the term's newest search.
  const lastSearch = db.prepare<[number, number, number, number, number], { at: number }>(
    `SELECT at_ms AS at FROM search_events
     WHERE project_pk = ? AND at_ms >= ? AND at_ms < ? AND term_id = ? AND kind = 0 AND id <= ?
     ORDER BY at_ms DESC LIMIT 1`,
  );

  return {
    /** Run reads against one consistent view of the database (WAL read transaction). */
    snapshot<T>(fn: () => T): T {
      return db.transaction(fn)();
    },
    projectPk: (projectId: string): number | undefined => pkSel.get(projectId)?.pk,
    maxId: (): number => maxIdSel.get()!.m ?? 0,
    /** The rollup rows of one day, as columns. */
    dayRows: (pk: number, day: number): RollupColumns => asColumns(fullDays.all(pk, day, day + 1)),
    /** The hourly rollup rows of one hour (hours since the epoch), as columns. */
    hourRows: (pk: number, hour: number): RollupColumns => asColumns(hourRows.all(pk, hour)),
    /** [hour, version] of every hour with rollups in [hour0, hour1). */
    hourVersions: (pk: number, hour0: number, hour1: number): [number, number][] => hourVersions.all(pk, hour0, hour1),
    /** [day, version] of every day with rollups in [day0, day1). */
    dayVersions: (pk: number, day0: number, day1: number): [number, number][] => dayVersions.all(pk, day0, day1),
    /** Terms created after `afterId`, in id order (the report keeps a dictionary of them). */
    termsAfter: (afterId: number): [number, string][] => normsAfter.all(afterId),
    /**
     * [termId, atMs] of every search in [fromMs, toMs), up to the pin, as an iterator: a partial
     * day is hundreds of thousands of rows at ten million events, and holding them all at once
     * made 390 ms collector pauses.
     */
    rawSearches: (pk: number, fromMs: number, toMs: number, maxId: number): IterableIterator<[number, number]> => rawSearches.iterate(pk, fromMs, toMs, maxId),
    /** Clicked searches per term whose search happened in [fromMs, toMs), up to the pin. */
    rawClickedByTerm: (pk: number, fromMs: number, toMs: number, window: { beforeMs: number; afterMs: number }, maxId: number) =>
      rawClicked.all(pk, fromMs - window.beforeMs, toMs + window.afterMs, fromMs, toMs, maxId).map((r) => ({ termId: r[0], clicked: r[1] })),
    daysTotal: (pk: number, day0: number, day1: number): number => dayTotals.get(pk, day0, day1)!.n ?? 0,
    /** Events stored after the pin: what the rollups hold beyond a report's snapshot. */
    eventsAfter: (pk: number, maxId: number): DeltaRow[] =>
      after.all(maxId, pk).map((r) => ({ kind: r[0], termId: r[1], atMs: r[2], countsCtr: r[3], searchAtMs: r[4], path: r[5] })),
    /** [termId, hits, clicked, lastAt] of every term of the project with searches (all time). */
    termTotals: (pk: number): [number, number, number, number | null][] => termTotals.all(pk),
    /** Events of the project with fromId < id <= toId. */
    eventsBetween: (pk: number, fromId: number, toId: number): DeltaRow[] =>
      eventsBetween.all(fromId, toId, pk).map((r) => ({ kind: r[0], termId: r[1], atMs: r[2], countsCtr: r[3], searchAtMs: r[4], path: r[5] })),
    /** What identifies the event with this id ("at:kind:term"), or null when there is none. */
    eventIdentity: (id: number): string | null => {
      const r = eventIdentity.get(id);
      return r ? `${r[0]}:${r[1]}:${r[2]}` : null;
    },
    clicksByPathDays: (pk: number, termId: number, day0: number, day1: number) => pagesDays.all(pk, termId, day0, day1),
    /** [termId, path, clicks] per hour in [hour0, hour1) of the given terms (clicks at any pin). */
    clicksByHoursOf: (pk: number, hour0: number, hour1: number, termIds: readonly number[]): [number, string, number][] =>
      termIds.length ? pagesHoursOf.all(pk, hour0, hour1, JSON.stringify(termIds)) : [],
    /** [termId, path] of every click in [fromMs, toMs) of the given terms, up to the pin. */
    clicksRawOf: (pk: number, fromMs: number, toMs: number, termIds: readonly number[], maxId: number): [number, string][] =>
      termIds.length ? clicksRawOf.all(pk, fromMs, toMs, JSON.stringify(termIds), maxId) : [],
    /** All-time clicks per page of a term. */
    termPages: (pk: number, termId: number): [string, number][] => termPages.all(pk, termId),
    lastSearchAt: (pk: number, termId: number, fromMs: number, toMs: number, maxId: number): number | null =>
      lastSearch.get(pk, fromMs, toMs, termId, maxId)?.at ?? null,
  };
}

export type SearchReportStore = ReturnType<typeof createSearchReportStore>;
