import type { Db } from '../db.js';

const DAY_MS = 86_400_000;

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
  pk: number;
  day: number;
  termId: number;
  hits: number;
  clicked: number;
  lastAt: number | null;
}

const maxOrNull = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/**
 * The write side of search analytics: raw rows, the term dictionary and every rollup, written in
 * one IMMEDIATE transaction per batch so that rollups always equal the raw rows they summarise.
 * Rollup changes are summed per batch first: a batch of 5,000 events touches each (day, term)
 * row once.
 */
export function createSearchEventStore(db: Db) {
  const projectPkSel = db.prepare<[string], { pk: number }>('SELECT pk FROM search_projects WHERE project_id = ?');
  const projectPkIns = db.prepare('INSERT INTO search_projects (project_id) VALUES (?) ON CONFLICT(project_id) DO NOTHING');
  const termSel = db.prepare<[number, string], { id: number }>('SELECT id FROM search_terms WHERE project_pk = ? AND norm = ?');
  const termIns = db.prepare('INSERT INTO search_terms (project_pk, norm) VALUES (?, ?) ON CONFLICT(project_pk, norm) DO NOTHING');
  const insertEvent = db.prepare(
    'INSERT INTO search_events (project_pk, kind, term_id, at_ms, result_count, path, counts_ctr, search_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const upsertDaily = db.prepare(
    `INSERT INTO search_daily (project_pk, day, term_id, hits, clicked, last_at_ms) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET hits = hits + excluded.hits, clicked = clicked + excluded.clicked,
       last_at_ms = max(coalesce(last_at_ms, excluded.last_at_ms), coalesce(excluded.last_at_ms, last_at_ms))`,
  );
  const upsertPage = db.prepare(
    `INSERT INTO search_daily_pages (project_pk, term_id, day, path, clicks) VALUES (?, ?, ?, ?, ?)
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
    `UPDATE search_terms SET hits = hits + @hits, clicked = clicked + @clicked,
       last_at_ms = max(coalesce(last_at_ms, @lastAt), coalesce(@lastAt, last_at_ms)) WHERE id = @id`,
  );
  const maxIdSel = db.prepare<[], { m: number | null }>('SELECT max(id) AS m FROM search_events');
  const projectPks = db.prepare<[], { pk: number }>('SELECT pk FROM search_projects');
  const deleteOld = db.prepare(
    'DELETE FROM search_events WHERE id IN (SELECT id FROM search_events WHERE project_pk = ? AND at_ms < ? AND id <= ? LIMIT ?)',
  );

  // Ids never change once given, so caching them is safe even with a second writer (the CLI).
  const projectCache = new Map<string, number>();
  const termCache = new Map<string, number>();

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
    const key = `${pk}\u0000${norm}`;
    let id = termCache.get(key);
    if (id === undefined) {
      termIns.run(pk, norm);
      id = termSel.get(pk, norm)!.id;
      // Bounded: a flood of one-off terms must not grow the process without limit.
      if (termCache.size >= 500_000) termCache.clear();
      termCache.set(key, id);
    }
    return id;
  }

  const write = db.transaction((events: readonly StoredSearchEvent[]) => {
    const daily = new Map<string, DailyDelta>();
    const pages = new Map<string, { pk: number; termId: number; day: number; path: string; clicks: number }>();
    const totals = new Map<string, { pk: number; day: number; hits: number }>();
    const terms = new Map<number, { hits: number; clicked: number; lastAt: number | null }>();
    const dailyFor = (pk: number, day: number, tid: number) => {
      const k = `${pk}:${day}:${tid}`;
      let d = daily.get(k);
      if (!d) daily.set(k, (d = { pk, day, termId: tid, hits: 0, clicked: 0, lastAt: null }));
      return d;
    };
    const termFor = (tid: number) => {
      let t = terms.get(tid);
      if (!t) terms.set(tid, (t = { hits: 0, clicked: 0, lastAt: null }));
      return t;
    };
    for (const e of events) {
      const pk = projectPk(e.projectId);
      const tid = termId(pk, e.norm);
      insertEvent.run(pk, e.kind, tid, e.atMs, e.resultCount, e.path, e.countsCtr, e.searchAtMs);
      if (e.kind === 0) {
        const day = Math.floor(e.atMs / DAY_MS);
        const d = dailyFor(pk, day, tid);
        d.hits++;
        d.lastAt = maxOrNull(d.lastAt, e.atMs);
        const t = termFor(tid);
        t.hits++;
        t.lastAt = maxOrNull(t.lastAt, e.atMs);
        const tk = `${pk}:${day}`;
        const tot = totals.get(tk);
        if (tot) tot.hits++;
        else totals.set(tk, { pk, day, hits: 1 });
      } else {
        const day = Math.floor(e.atMs / DAY_MS);
        const pkey = `${pk}:${tid}:${day}:${e.path}`;
        const p = pages.get(pkey);
        if (p) p.clicks++;
        else pages.set(pkey, { pk, termId: tid, day, path: e.path!, clicks: 1 });
        if (e.countsCtr && e.searchAtMs !== null) {
          dailyFor(pk, Math.floor(e.searchAtMs / DAY_MS), tid).clicked++;
          termFor(tid).clicked++;
        }
      }
    }
    for (const d of daily.values()) upsertDaily.run(d.pk, d.day, d.termId, d.hits, d.clicked, d.lastAt);
    const termPages = new Map<string, { pk: number; termId: number; path: string; clicks: number }>();
    for (const p of pages.values()) {
      upsertPage.run(p.pk, p.termId, p.day, p.path, p.clicks);
      const k = `${p.pk}:${p.termId}:${p.path}`;
      const tp = termPages.get(k);
      if (tp) tp.clicks += p.clicks;
      else termPages.set(k, { pk: p.pk, termId: p.termId, path: p.path, clicks: p.clicks });
    }
    for (const p of termPages.values()) upsertTermPage.run(p.pk, p.termId, p.path, p.clicks);
    // Every day whose search_daily rows changed gets a new version (clicked-only days included).
    for (const d of daily.values()) {
      const tk = `${d.pk}:${d.day}`;
      if (!totals.has(tk)) totals.set(tk, { pk: d.pk, day: d.day, hits: 0 });
    }
    for (const t of totals.values()) upsertTotal.run(t.pk, t.day, t.hits);
    for (const [tid, t] of terms) updateTerm.run({ hits: t.hits, clicked: t.clicked, lastAt: t.lastAt, id: tid });
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
