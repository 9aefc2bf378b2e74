import type { Db } from '../db.js';

export interface TermAggregateRow {
  termId: number;
  norm: string;
  hits: number;
  clicked: number;
  lastAt: number | null;
}

export interface DeltaRow {
  kind: 0 | 1;
  termId: number;
  atMs: number;
  countsCtr: number;
  searchAtMs: number | null;
  path: string | null;
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
  const topTerms = db
    .prepare<[number, number], [number, string, number, number, number | null]>(
      'SELECT id, norm, hits, clicked, last_at_ms FROM search_terms WHERE project_pk = ? AND hits > 0 ORDER BY hits DESC, norm ASC LIMIT ?',
    )
    .raw();
  const topTermsAfter = db
    .prepare<[number, number, number, string, number], [number, string, number, number, number | null]>(
      `SELECT id, norm, hits, clicked, last_at_ms FROM search_terms
       WHERE project_pk = ? AND hits > 0 AND (hits < ? OR (hits = ? AND norm > ?)) ORDER BY hits DESC, norm ASC LIMIT ?`,
    )
    .raw();
  const termsById = db.prepare<[number], { id: number; norm: string; hits: number; clicked: number; last_at_ms: number | null }>(
    'SELECT id, norm, hits, clicked, last_at_ms FROM search_terms WHERE id = ?',
  );
  const pagesDays = db
    .prepare<[number, number, number, number], [string, number]>(
      'SELECT path, sum(clicks) FROM search_daily_pages WHERE project_pk = ? AND term_id = ? AND day >= ? AND day < ? GROUP BY path',
    )
    .raw();
  const pagesRaw = db
    .prepare<[number, number, number, number, number], [string, number]>(
      `SELECT path, count(*) FROM search_events
       WHERE project_pk = ? AND term_id = ? AND at_ms >= ? AND at_ms < ? AND kind = 1 AND id <= ? GROUP BY path`,
    )
    .raw();
  const topPagesAll = db
    .prepare<[number, number, number], [string, number]>(
      'SELECT path, clicks FROM search_term_pages WHERE project_pk = ? AND term_id = ? AND clicks > 0 ORDER BY clicks DESC, path ASC LIMIT ?',
    )
    .raw();
  const termPage = db.prepare<[number, number, string], { clicks: number }>('SELECT clicks FROM search_term_pages WHERE project_pk = ? AND term_id = ? AND path = ?');
  const lastSearch = db.prepare<[number, number, number, number, number], { at: number }>(
    `SELECT at_ms AS at FROM search_events
     WHERE project_pk = ? AND term_id = ? AND at_ms >= ? AND at_ms < ? AND kind = 0 AND id <= ?
     ORDER BY at_ms DESC LIMIT 1`,
  );

  const toAgg = (r: [number, string, number, number, number | null]): TermAggregateRow => ({ termId: r[0], norm: r[1], hits: r[2], clicked: r[3], lastAt: r[4] });

  return {
    /** Run reads against one consistent view of the database (WAL read transaction). */
    snapshot<T>(fn: () => T): T {
      return db.transaction(fn)();
    },
    projectPk: (projectId: string): number | undefined => pkSel.get(projectId)?.pk,
    maxId: (): number => maxIdSel.get()!.m ?? 0,
    /** The rollup rows of one day, as columns. */
    dayRows(pk: number, day: number): { termIds: Int32Array; hits: Int32Array; clicked: Int32Array; lastAt: Float64Array } {
      const rows = fullDays.all(pk, day, day + 1);
      const n = rows.length;
      const out = { termIds: new Int32Array(n), hits: new Int32Array(n), clicked: new Int32Array(n), lastAt: new Float64Array(n) };
      for (let i = 0; i < n; i++) {
        const r = rows[i]!;
        out.termIds[i] = r[0];
        out.hits[i] = r[1];
        out.clicked[i] = r[2];
        out.lastAt[i] = r[3] ?? -Infinity;
      }
      return out;
    },
    /** [day, version] of every day with rollups in [day0, day1). */
    dayVersions: (pk: number, day0: number, day1: number): [number, number][] => dayVersions.all(pk, day0, day1),
    /** Terms created after `afterId`, in id order (the report keeps a dictionary of them). */
    termsAfter: (afterId: number): [number, string][] => normsAfter.all(afterId),
    /** Searches per term from raw events in [fromMs, toMs), up to the pin. */
    /** [termId, atMs] of every search in [fromMs, toMs), up to the pin. */
    rawSearches: (pk: number, fromMs: number, toMs: number, maxId: number): [number, number][] => rawSearches.all(pk, fromMs, toMs, maxId),
    /** Clicked searches per term whose search happened in [fromMs, toMs), up to the pin. */
    rawClickedByTerm: (pk: number, fromMs: number, toMs: number, window: { beforeMs: number; afterMs: number }, maxId: number) =>
      rawClicked.all(pk, fromMs - window.beforeMs, toMs + window.afterMs, fromMs, toMs, maxId).map((r) => ({ termId: r[0], clicked: r[1] })),
    daysTotal: (pk: number, day0: number, day1: number): number => dayTotals.get(pk, day0, day1)!.n ?? 0,
    /** Events stored after the pin: what the rollups hold beyond a report's snapshot. */
    eventsAfter: (pk: number, maxId: number): DeltaRow[] =>
      after.all(maxId, pk).map((r) => ({ kind: r[0], termId: r[1], atMs: r[2], countsCtr: r[3], searchAtMs: r[4], path: r[5] })),
    /** All-time ranking straight from the index, from the start or after a (hits, norm) key. */
    topTerms: (pk: number, limit: number, after?: { hits: number; norm: string }): TermAggregateRow[] =>
      (after ? topTermsAfter.all(pk, after.hits, after.hits, after.norm, limit) : topTerms.all(pk, limit)).map(toAgg),
    term: (termId: number): TermAggregateRow | undefined => {
      const r = termsById.get(termId);
      return r && { termId: r.id, norm: r.norm, hits: r.hits, clicked: r.clicked, lastAt: r.last_at_ms };
    },
    clicksByPathDays: (pk: number, termId: number, day0: number, day1: number) => pagesDays.all(pk, termId, day0, day1),
    clicksByPathRaw: (pk: number, termId: number, fromMs: number, toMs: number, maxId: number) => pagesRaw.all(pk, termId, fromMs, toMs, maxId),
    /** All-time pages of a term, most clicked first (ties: path ascending). */
    topPagesAllTime: (pk: number, termId: number, limit: number) => topPagesAll.all(pk, termId, limit),
    termPageClicks: (pk: number, termId: number, path: string): number => termPage.get(pk, termId, path)?.clicks ?? 0,
    lastSearchAt: (pk: number, termId: number, fromMs: number, toMs: number, maxId: number): number | null =>
      lastSearch.get(pk, termId, fromMs, toMs, maxId)?.at ?? null,
  };
}

export type SearchReportStore = ReturnType<typeof createSearchReportStore>;
