import type { Db } from '../db.js';

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;
/** `page_daily.day` of the all-time rows: kept at ingest like a day, so all time is one vector. */
export const ALL_TIME_DAY = -1;
/** `page_daily.path_id` of the whole site: site-wide unique visitors are not the sum of the paths'. */
export const SITE_PATH_ID = 0;

/** One page view as stored: the visitor already reduced to its daily-salted hash. */
export interface StoredPageView {
  projectId: string;
  atMs: number;
  path: string;
  ai: 0 | 1;
  /** 48-bit hash of (daily salt, IP, user agent, project); never the address itself. */
  visitor: number;
}

/** What one batch added to one (project, day or hour, path) rollup row; `day` -1 is all time. */
export interface PageDailyDelta {
  projectPk: number;
  /** `day` of page_daily, or with `hourly` the `hour` of page_hourly. */
  day: number;
  hourly?: true;
  pathId: number;
  viewsHuman: number;
  viewsAi: number;
  visitorsHuman: number;
  visitorsAi: number;
  visitorsTotal: number;
}

/** A batch's effect: the rollup deltas and each touched day's new version (for in-memory caches). */
export interface PageBatchResult {
  deltas: PageDailyDelta[];
  versions: { projectPk: number; day: number; version: number; hourly?: true }[];
}

const RAW_ROWS_PER_INSERT = 100;
const RAW_COLUMNS = 6;
/** (visitor, path) pairs remembered per open day: about 100 bytes each in memory. */
export const SEEN_DAY_MAX = 3_000_000;

/**
 * The write side of page views: raw rows, the path dictionary, the open days' visitor
 * de-duplication state and the daily (and all-time) rollups, in one IMMEDIATE transaction per
 * batch, so rollups always equal the raw rows they summarise.
 */
export function createPageViewStore(db: Db) {
  const projectPkSel = db.prepare<[string], { pk: number }>('SELECT pk FROM search_projects WHERE project_id = ?');
  const projectPkIns = db.prepare('INSERT INTO search_projects (project_id) VALUES (?) ON CONFLICT(project_id) DO NOTHING');
  const pathSel = db.prepare<[number, string], { id: number }>('SELECT id FROM page_paths WHERE project_pk = ? AND path = ?');
  const pathIns = db.prepare('INSERT INTO page_paths (project_pk, path) VALUES (?, ?) ON CONFLICT(project_pk, path) DO NOTHING');
  const upsertDaily = db.prepare(
    `INSERT INTO page_daily (project_pk, day, path_id, views_human, views_ai, visitors_human, visitors_ai, visitors_total)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET views_human = views_human + excluded.views_human, views_ai = views_ai + excluded.views_ai,
       visitors_human = visitors_human + excluded.visitors_human, visitors_ai = visitors_ai + excluded.visitors_ai,
       visitors_total = visitors_total + excluded.visitors_total`,
  );
  const upsertHourly = db.prepare(
    `INSERT INTO page_hourly (project_pk, hour, path_id, views_human, views_ai, visitors_human, visitors_ai, visitors_total)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET views_human = views_human + excluded.views_human, views_ai = views_ai + excluded.views_ai,
       visitors_human = visitors_human + excluded.visitors_human, visitors_ai = visitors_ai + excluded.visitors_ai,
       visitors_total = visitors_total + excluded.visitors_total`,
  );
  const bumpHour = db.prepare<[number, number], { version: number }>(
    `INSERT INTO page_hour_totals (project_pk, hour, version) VALUES (?, ?, 1)
     ON CONFLICT DO UPDATE SET version = version + 1 RETURNING version`,
  );
  const bumpDay = db.prepare<[number, number], { version: number }>(
    `INSERT INTO page_day_totals (project_pk, day, version) VALUES (?, ?, 1)
     ON CONFLICT DO UPDATE SET version = version + 1 RETURNING version`,
  );
  const insertStatements = new Map<number, ReturnType<Db['prepare']>>();
  const insertViews = (rows: number) => {
    let st = insertStatements.get(rows);
    if (!st) {
      st = db.prepare(`INSERT INTO page_views (project_pk, at_ms, path_id, ai, visitor, counted) VALUES ${Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?)').join(', ')}`);
      insertStatements.set(rows, st);
    }
    return st;
  };
  const deleteOld = db.prepare('DELETE FROM page_views WHERE id IN (SELECT id FROM page_views WHERE project_pk = ? AND at_ms < ? LIMIT ?)');
  const projectPks = db.prepare<[], { pk: number }>('SELECT DISTINCT project_pk AS pk FROM page_day_totals');

  const projectCache = new Map<string, number>();
  const pathCache = new Map<number, Map<string, number>>();

  function projectPk(projectId: string): number {
    let pk = projectCache.get(projectId);
    if (pk === undefined) {
      projectPkIns.run(projectId);
      pk = projectPkSel.get(projectId)!.pk;
      projectCache.set(projectId, pk);
    }
    return pk;
  }

  function pathId(pk: number, path: string): number {
    let m = pathCache.get(pk);
    if (!m) pathCache.set(pk, (m = new Map()));
    let id = m.get(path);
    if (id === undefined) {
      pathIns.run(pk, path);
      id = pathSel.get(pk, path)!.id;
      // Bounded: a site's paths are finite, but a cache must not grow with forged ones.
      if (m.size >= 500_000) m.clear();
      m.set(path, id);
    }
    return id;
  }

  // Which visitors each open day already counted, per (project, day): visitor → path → bits
  // (1 human, 2 AI). Rebuilt from the day's raw views the first time this process writes the
  // day (after a restart too: the raw rows are the record), then kept in step in memory; no
  // second row per view is written. Bounded: past SEEN_DAY_MAX pairs a day, further new pairs
  // are not remembered (such a visitor would count again: docs/analytics.md, limits).
  const seenDays = new Map<string, { pairs: number; map: Map<number, Map<number, number>> }>();
  const dayViews = db.prepare<[number, number, number], [number, number, number]>('SELECT visitor, path_id, ai FROM page_views WHERE project_pk = ? AND at_ms >= ? AND at_ms < ?').raw();
  let overflowed: ((day: number) => void) | undefined;
  const remember = (st: { pairs: number; map: Map<number, Map<number, number>> }, visitor: number, target: number, bits: number, day: number) => {
    let m = st.map.get(visitor);
    if (!m) {
      if (st.pairs >= SEEN_DAY_MAX) return void overflowed?.(day);
      st.map.set(visitor, (m = new Map()));
    }
    if (!m.has(target)) {
      if (st.pairs >= SEEN_DAY_MAX) return void overflowed?.(day);
      st.pairs++;
    }
    m.set(target, bits);
  };
  function seenState(pk: number, day: number) {
    const k = `${pk}:${day}`;
    let st = seenDays.get(k);
    if (!st) {
      st = { pairs: 0, map: new Map() };
      for (const [visitor, pid, ai] of dayViews.iterate(pk, day * DAY_MS, (day + 1) * DAY_MS)) {
        const bit = ai ? 2 : 1;
        for (const target of [pid, SITE_PATH_ID]) remember(st, visitor, target, (st.map.get(visitor)?.get(target) ?? 0) | bit, day);
      }
      // Only today and yesterday are written (views take their receipt time).
      if (seenDays.size >= 4) seenDays.delete(seenDays.keys().next().value!);
      seenDays.set(k, st);
    }
    return st;
  }

  const write = db.transaction((views: readonly StoredPageView[]): PageBatchResult => {
    // Batch sums per (project, granularity, day or hour) and path, keyed by numbers.
    const buckets = new Map<number, { projectPk: number; day: number; hourly: boolean; paths: Map<number, PageDailyDelta> }>();
    const bucket = (pk: number, day: number, hourly: boolean) => {
      const k = pk * 2 ** 32 + (hourly ? 2 ** 31 : 0) + day + 1;
      let b = buckets.get(k);
      if (!b) buckets.set(k, (b = { projectPk: pk, day, hourly, paths: new Map() }));
      return b;
    };
    const deltaIn = (b: { projectPk: number; day: number; hourly: boolean; paths: Map<number, PageDailyDelta> }, pid: number) => {
      let d = b.paths.get(pid);
      if (!d) {
        d = { projectPk: b.projectPk, day: b.day, pathId: pid, viewsHuman: 0, viewsAi: 0, visitorsHuman: 0, visitorsAi: 0, visitorsTotal: 0 };
        if (b.hourly) d.hourly = true;
        b.paths.set(pid, d);
      }
      return d;
    };
    const args: unknown[] = new Array(RAW_ROWS_PER_INSERT * RAW_COLUMNS);
    let n = 0;
    for (const v of views) {
      const pk = projectPk(v.projectId);
      const pid = pathId(pk, v.path);
      const day = Math.floor(v.atMs / DAY_MS);
      const hour = Math.floor(v.atMs / HOUR_MS);
      const bit = v.ai ? 2 : 1;
      const st = seenState(pk, day);
      const mine = st.map.get(v.visitor);
      const bDay = bucket(pk, day, false);
      const bAll = bucket(pk, ALL_TIME_DAY, false);
      const bHour = bucket(pk, hour, true);
      let counted = 0;
      for (let side = 0; side < 2; side++) {
        const target = side === 0 ? pid : SITE_PATH_ID;
        const seen = mine?.get(target) ?? 0;
        const fresh = (seen & bit) === 0;
        if (fresh) {
          remember(st, v.visitor, target, seen | bit, day);
          counted |= (bit | (seen === 0 ? 4 : 0)) << (side * 3);
        }
        for (const b of [bDay, bAll, bHour]) {
          const d = deltaIn(b, target);
          if (v.ai) d.viewsAi++;
          else d.viewsHuman++;
          if (!fresh) continue;
          if (v.ai) d.visitorsAi++;
          else d.visitorsHuman++;
          if (seen === 0) d.visitorsTotal++;
        }
      }
      const o = n * RAW_COLUMNS;
      args[o] = pk;
      args[o + 1] = v.atMs;
      args[o + 2] = pid;
      args[o + 3] = v.ai;
      args[o + 4] = v.visitor;
      args[o + 5] = counted;
      if (++n === RAW_ROWS_PER_INSERT) {
        insertViews(RAW_ROWS_PER_INSERT).run(args);
        n = 0;
      }
    }
    if (n > 0) insertViews(n).run(args.slice(0, n * RAW_COLUMNS));
    const deltas: PageDailyDelta[] = [];
    const versions: PageBatchResult['versions'] = [];
    for (const b of buckets.values()) {
      const upsert = b.hourly ? upsertHourly : upsertDaily;
      for (const d of b.paths.values()) {
        upsert.run(d.projectPk, d.day, d.pathId, d.viewsHuman, d.viewsAi, d.visitorsHuman, d.visitorsAi, d.visitorsTotal);
        deltas.push(d);
      }
      const version = (b.hourly ? bumpHour : bumpDay).get(b.projectPk, b.day)!.version;
      versions.push(b.hourly ? { projectPk: b.projectPk, day: b.day, version, hourly: true } : { projectPk: b.projectPk, day: b.day, version });
    }
    return { deltas, versions };
  });

  return {
    projectPk,
    /** Append a batch and fold it into the rollups, atomically; returns what changed. */
    writeBatch(views: readonly StoredPageView[]): PageBatchResult {
      if (!views.length) return { deltas: [], versions: [] };
      try {
        return write.immediate(views);
      } catch (err) {
        // Ids and visitor state cached during a rolled-back transaction may name rows that no longer exist.
        projectCache.clear();
        pathCache.clear();
        seenDays.clear();
        throw err;
      }
    },
    /** Forget which visitors were counted on days before `day` (their salt is gone already). */
    closeDaysBefore(day: number): number {
      let closed = 0;
      for (const k of [...seenDays.keys()]) if (Number(k.split(':')[1]) < day) seenDays.delete(k), closed++;
      return closed;
    },
    /** Called (once per day at most by the caller's throttle) when a day's visitor state is full. */
    onOverflow(fn: (day: number) => void): void {
      overflowed = fn;
    },
    /** Delete raw page views older than `cutoffMs` (rollups stay), in small transactions. */
    deleteRawBefore(cutoffMs: number, chunk = 20_000): number {
      let deleted = 0;
      for (const { pk } of projectPks.all()) {
        for (;;) {
          const n = db.transaction(() => deleteOld.run(pk, cutoffMs, chunk).changes).immediate();
          deleted += n;
          if (n < chunk) break;
        }
      }
      return deleted;
    },
  };
}

export type PageViewStore = ReturnType<typeof createPageViewStore>;
