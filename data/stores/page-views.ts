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
  const seenSel = db.prepare<[number, number, number, number], { seen: number }>(
    'SELECT seen FROM page_day_visitors WHERE project_pk = ? AND day = ? AND visitor = ? AND path_id = ?',
  );
  const seenSet = db.prepare(
    `INSERT INTO page_day_visitors (project_pk, day, visitor, path_id, seen) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET seen = excluded.seen`,
  );
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
  const deleteClosed = db.prepare('DELETE FROM page_day_visitors WHERE day < ?');
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

  const write = db.transaction((views: readonly StoredPageView[]): PageBatchResult => {
    const deltas = new Map<string, PageDailyDelta>();
    const delta = (projectPkV: number, day: number, pid: number, hourly: boolean) => {
      const k = `${hourly ? 'h' : 'd'}${projectPkV}:${day}:${pid}`;
      let d = deltas.get(k);
      if (!d) {
        d = { projectPk: projectPkV, day, pathId: pid, viewsHuman: 0, viewsAi: 0, visitorsHuman: 0, visitorsAi: 0, visitorsTotal: 0 };
        if (hourly) d.hourly = true;
        deltas.set(k, d);
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
      let counted = 0;
      for (const [target, shift] of [[pid, 0], [SITE_PATH_ID, 3]] as const) {
        const seen = seenSel.get(pk, day, v.visitor, target)?.seen ?? 0;
        const fresh = (seen & bit) === 0;
        if (fresh) {
          seenSet.run(pk, day, v.visitor, target, seen | bit);
          counted |= (bit | (seen === 0 ? 4 : 0)) << shift;
        }
        for (const d of [delta(pk, day, target, false), delta(pk, ALL_TIME_DAY, target, false), delta(pk, hour, target, true)]) {
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
    const days = new Map<string, { projectPk: number; day: number; hourly?: true }>();
    for (const d of deltas.values()) {
      (d.hourly ? upsertHourly : upsertDaily).run(d.projectPk, d.day, d.pathId, d.viewsHuman, d.viewsAi, d.visitorsHuman, d.visitorsAi, d.visitorsTotal);
      days.set(`${d.hourly ? 'h' : 'd'}${d.projectPk}:${d.day}`, d.hourly ? { projectPk: d.projectPk, day: d.day, hourly: true } : { projectPk: d.projectPk, day: d.day });
    }
    const versions: PageBatchResult['versions'] = [];
    for (const t of days.values()) versions.push({ ...t, version: (t.hourly ? bumpHour : bumpDay).get(t.projectPk, t.day)!.version });
    return { deltas: [...deltas.values()], versions };
  });

  return {
    projectPk,
    /** Append a batch and fold it into the rollups, atomically; returns what changed. */
    writeBatch(views: readonly StoredPageView[]): PageBatchResult {
      if (!views.length) return { deltas: [], versions: [] };
      try {
        return write.immediate(views);
      } catch (err) {
        // Ids cached during a rolled-back transaction may name rows that no longer exist.
        projectCache.clear();
        pathCache.clear();
        throw err;
      }
    },
    /** Forget which visitors were counted on days before `day` (their salt is gone already). */
    closeDaysBefore(day: number): number {
      return deleteClosed.run(day).changes;
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
