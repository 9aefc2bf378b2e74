import type { Db } from '../db.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** One event as stored: session already resolved into de-duplication and click attribution. */
export interface StoredSearchEvent {
  projectId: string;
  kind: 0 | 1;
  norm: string;
  atMs: number;
  resultCount: number | null;
  path: string | null;
  /** Click only: 1 when this click made its search count as clicked (CTR). */
  countsCtr: 0 | 1;
  /** Click only, with countsCtr: the time of the search it was attributed to. */
  searchAtMs: number | null;
}

interface DailyDelta {
  termId: number;
  hits: number;
  clicked: number;
  lastAt: number;
}

/** Rows per multi-row INSERT of raw events: one statement step per 100 rows instead of per row. */
const RAW_ROWS_PER_INSERT = 100;
const RAW_COLUMNS = 8;
// A (project, day) pair as one number: days since the epoch < 2^21, project pks < 2^32 (< 2^53).
const DAY_BITS = 2_097_152;
// A (project, hour) pair likewise: hours since the epoch < 2^26, project pks < 2^27.
const HOUR_BITS = 67_108_864;

/**
 * The write side of search analytics: raw rows, the term dictionary and every rollup, written in
 * one IMMEDIATE transaction per batch so that rollups always equal the raw rows they summarise.
 * Rollup changes are summed per batch first, so a batch touches each (day, term) row once; the
 * bigger the batch (the import writes 100,000 events per transaction), the fewer row updates per
 * event. Batch sums are keyed by numbers or nested maps rather than concatenated strings (no
 * string built per event); with the multi-row inserts this took a one-thread import of a
 * million lines from 34,000 to 65,000 lines/s (docs/analytics.md, "Performance").
 */
export function createSearchEventStore(db: Db) {
  const projectPkSel = db.prepare<[string], { pk: number }>('SELECT pk FROM search_projects WHERE project_id = ?');
  const projectPkIns = db.prepare('INSERT INTO search_projects (project_id) VALUES (?) ON CONFLICT(project_id) DO NOTHING');
  const termSel = db.prepare<[number, string], { id: number }>('SELECT id FROM search_terms WHERE project_pk = ? AND norm = ?');
  const termIns = db.prepare('INSERT INTO search_terms (project_pk, norm) VALUES (?, ?) ON CONFLICT(project_pk, norm) DO NOTHING');
  const insertStatements = new Map<number, ReturnType<Db['prepare']>>();
  const insertEvents = (rows: number) => {
    let st = insertStatements.get(rows);
    if (!st) {
      const values = Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
      st = db.prepare(`INSERT INTO search_events (project_pk, kind, term_id, at_ms, result_count, path, counts_ctr, search_at_ms) VALUES ${values}`);
      insertStatements.set(rows, st);
    }
    return st;
  };
  const upsertDaily = db.prepare(
    `INSERT INTO search_daily (project_pk, day, term_id, hits, clicked, last_at_ms) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET hits = hits + excluded.hits, clicked = clicked + excluded.clicked,
       last_at_ms = max(coalesce(last_at_ms, excluded.last_at_ms), coalesce(excluded.last_at_ms, last_at_ms))`,
  );
  const upsertHourly = db.prepare(
    `INSERT INTO search_hourly (project_pk, hour, term_id, hits, clicked, last_at_ms) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET hits = hits + excluded.hits, clicked = clicked + excluded.clicked,
       last_at_ms = max(coalesce(last_at_ms, excluded.last_at_ms), coalesce(excluded.last_at_ms, last_at_ms))`,
  );
  const bumpHour = db.prepare(
    `INSERT INTO search_hourly_totals (project_pk, hour, version) VALUES (?, ?, 1)
     ON CONFLICT DO UPDATE SET version = version + 1`,
  );
  const upsertPage = db.prepare(
    `INSERT INTO search_daily_pages (project_pk, term_id, day, path, clicks) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET clicks = clicks + excluded.clicks`,
  );
  const upsertHourPage = db.prepare(
    `INSERT INTO search_hourly_pages (project_pk, hour, term_id, path, clicks) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET clicks = clicks + excluded.clicks`,
  );
  const upsertTermPage = db.prepare(
    `INSERT INTO search_term_pages (project_pk, term_id, path, clicks) VALUES (?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET clicks = clicks + excluded.clicks`,
  );
  const upsertTotal = db.prepare(
    `INSERT INTO search_daily_totals (project_pk, day, hits, version) VALUES (?, ?, ?, 1)
     ON CONFLICT DO UPDATE SET hits = hits + excluded.hits, version = version + 1`,
  );
  const updateTerm = db.prepare(
    `UPDATE search_terms SET hits = hits + ?, clicked = clicked + ?,
       last_at_ms = max(coalesce(last_at_ms, ?), coalesce(?, last_at_ms)) WHERE id = ?`,
  );
  const maxIdSel = db.prepare<[], { m: number | null }>('SELECT max(id) AS m FROM search_events');
  const projectPks = db.prepare<[], { pk: number }>('SELECT pk FROM search_projects');
  const deleteOld = db.prepare(
    'DELETE FROM search_events WHERE id IN (SELECT id FROM search_events WHERE project_pk = ? AND at_ms < ? AND id <= ? LIMIT ?)',
  );

  // Ids never change once given, so caching them is safe even with a second writer (the CLI).
  const projectCache = new Map<string, number>();
  const termCache = new Map<number, Map<string, number>>();
  let termCacheSize = 0;

  function projectPk(projectId: string): number {
    let pk = projectCache.get(projectId);
    if (pk === undefined) {
      projectPkIns.run(projectId);
      pk = projectPkSel.get(projectId)!.pk;
      projectCache.set(projectId, pk);
    }
    return pk;
  }

  function termId(pk: number, norm: string): number {
    let terms = termCache.get(pk);
    if (!terms) termCache.set(pk, (terms = new Map()));
    let id = terms.get(norm);
    if (id === undefined) {
      termIns.run(pk, norm);
      id = termSel.get(pk, norm)!.id;
      // Bounded: a flood of one-off terms must not grow the process without limit.
      if (termCacheSize >= 500_000) {
        for (const m of termCache.values()) m.clear();
        termCacheSize = 0;
      }
      terms.set(norm, id);
      termCacheSize++;
    }
    return id;
  }

  const write = db.transaction((events: readonly StoredSearchEvent[]) => {
    // (project, day) → term id → change; term id → all-time change; "term\0day\0path" → clicks.
    const daily = new Map<number, Map<number, DailyDelta>>();
    // (project, hour) → term id → change: the same sums per UTC hour (migration 006).
    const hourly = new Map<number, Map<number, DailyDelta>>();
    const dayHits = new Map<number, number>();
    const terms = new Map<number, DailyDelta>();
    // Clicks per project → "term\0hour\0path"; the day and all-time page sums are derived from it.
    const pages = new Map<number, Map<string, { termId: number; hour: number; path: string; clicks: number }>>();
    const dailyFor = (dk: number, tid: number) => {
      let m = daily.get(dk);
      if (!m) daily.set(dk, (m = new Map()));
      let d = m.get(tid);
      if (!d) m.set(tid, (d = { termId: tid, hits: 0, clicked: 0, lastAt: -Infinity }));
      return d;
    };
    const hourlyFor = (hk: number, tid: number) => {
      let m = hourly.get(hk);
      if (!m) hourly.set(hk, (m = new Map()));
      let d = m.get(tid);
      if (!d) m.set(tid, (d = { termId: tid, hits: 0, clicked: 0, lastAt: -Infinity }));
      return d;
    };
    const termFor = (tid: number) => {
      let t = terms.get(tid);
      if (!t) terms.set(tid, (t = { termId: tid, hits: 0, clicked: 0, lastAt: -Infinity }));
      return t;
    };
    const full = insertEvents(RAW_ROWS_PER_INSERT);
    const args: unknown[] = new Array(RAW_ROWS_PER_INSERT * RAW_COLUMNS);
    let n = 0;
    for (const e of events) {
      const pk = projectPk(e.projectId);
      const tid = termId(pk, e.norm);
      const o = n * RAW_COLUMNS;
      args[o] = pk;
      args[o + 1] = e.kind;
      args[o + 2] = tid;
      args[o + 3] = e.atMs;
      args[o + 4] = e.resultCount;
      args[o + 5] = e.path;
      args[o + 6] = e.countsCtr;
      args[o + 7] = e.searchAtMs;
      if (++n === RAW_ROWS_PER_INSERT) {
        full.run(args);
        n = 0;
      }
      const day = Math.floor(e.atMs / DAY_MS);
      const dk = pk * DAY_BITS + day;
      if (e.kind === 0) {
        const d = dailyFor(dk, tid);
        d.hits++;
        if (e.atMs > d.lastAt) d.lastAt = e.atMs;
        const h = hourlyFor(pk * HOUR_BITS + Math.floor(e.atMs / HOUR_MS), tid);
        h.hits++;
        if (e.atMs > h.lastAt) h.lastAt = e.atMs;
        const t = termFor(tid);
        t.hits++;
        if (e.atMs > t.lastAt) t.lastAt = e.atMs;
        dayHits.set(dk, (dayHits.get(dk) ?? 0) + 1);
      } else {
        let m = pages.get(pk);
        if (!m) pages.set(pk, (m = new Map()));
        const hour = Math.floor(e.atMs / HOUR_MS);
        const pkey = `${tid}\u0000${hour}\u0000${e.path}`;
        const p = m.get(pkey);
        if (p) p.clicks++;
        else m.set(pkey, { termId: tid, hour, path: e.path!, clicks: 1 });
        if (e.countsCtr && e.searchAtMs !== null) {
          dailyFor(pk * DAY_BITS + Math.floor(e.searchAtMs / DAY_MS), tid).clicked++;
          hourlyFor(pk * HOUR_BITS + Math.floor(e.searchAtMs / HOUR_MS), tid).clicked++;
          termFor(tid).clicked++;
        }
      }
    }
    if (n > 0) insertEvents(n).run(args.slice(0, n * RAW_COLUMNS));
    const orNull = (x: number) => (x === -Infinity ? null : x);
    for (const [dk, m] of daily) {
      const pk = Math.floor(dk / DAY_BITS);
      const day = dk - pk * DAY_BITS;
      for (const d of m.values()) upsertDaily.run(pk, day, d.termId, d.hits, d.clicked, orNull(d.lastAt));
      // Every day whose search_daily rows changed gets a new version (clicked-only days included).
      if (!dayHits.has(dk)) dayHits.set(dk, 0);
    }
    for (const [hk, m] of hourly) {
      const pk = Math.floor(hk / HOUR_BITS);
      const hour = hk - pk * HOUR_BITS;
      for (const d of m.values()) upsertHourly.run(pk, hour, d.termId, d.hits, d.clicked, orNull(d.lastAt));
      bumpHour.run(pk, hour);
    }
    for (const [pk, m] of pages) {
      const dayPages = new Map<string, { termId: number; day: number; path: string; clicks: number }>();
      for (const p of m.values()) {
        upsertHourPage.run(pk, p.hour, p.termId, p.path, p.clicks);
        const day = Math.floor(p.hour / 24);
        const k = `${p.termId}\u0000${day}\u0000${p.path}`;
        const dp = dayPages.get(k);
        if (dp) dp.clicks += p.clicks;
        else dayPages.set(k, { termId: p.termId, day, path: p.path, clicks: p.clicks });
      }
      const termPages = new Map<string, { termId: number; path: string; clicks: number }>();
      for (const p of dayPages.values()) {
        upsertPage.run(pk, p.termId, p.day, p.path, p.clicks);
        const k = `${p.termId}\u0000${p.path}`;
        const tp = termPages.get(k);
        if (tp) tp.clicks += p.clicks;
        else termPages.set(k, { termId: p.termId, path: p.path, clicks: p.clicks });
      }
      for (const p of termPages.values()) upsertTermPage.run(pk, p.termId, p.path, p.clicks);
    }
    for (const [dk, hits] of dayHits) {
      const pk = Math.floor(dk / DAY_BITS);
      upsertTotal.run(pk, dk - pk * DAY_BITS, hits);
    }
    for (const t of terms.values()) {
      const last = orNull(t.lastAt);
      updateTerm.run(t.hits, t.clicked, last, last, t.termId);
    }
  });

  return {
    /** Append a batch and fold it into every rollup, atomically. */
    writeBatch(events: readonly StoredSearchEvent[]): void {
      if (!events.length) return;
      try {
        write.immediate(events);
      } catch (err) {
        // Ids cached during a rolled-back transaction may name rows that no longer exist.
        projectCache.clear();
        termCache.clear();
        throw err;
      }
    },
    /** The ingest sequence: the id of the newest stored event (0 when none). */
    maxId(): number {
      return maxIdSel.get()!.m ?? 0;
    },
    /**
     * Delete raw events older than `cutoffMs` whose id is at most `fenceId` (rollups stay), in
     * small transactions so ingest is never blocked for long. Returns the number deleted.
     */
    deleteRawBefore(cutoffMs: number, fenceId: number, chunk = 20_000): number {
      let deleted = 0;
      for (const { pk } of projectPks.all()) {
        for (;;) {
          const n = db.transaction(() => deleteOld.run(pk, cutoffMs, fenceId, chunk).changes).immediate();
          deleted += n;
          if (n < chunk) break;
        }
      }
      return deleted;
    },
  };
}

export type SearchEventStore = ReturnType<typeof createSearchEventStore>;
