import type { Db } from '../../data/db.js';
import type { Project } from '../../data/stores/projects.js';
import { DAY_MS, SITE_PATH_ID } from '../../data/stores/page-views.js';
import type { ConsoleReaderAnalytics } from './services.js';

/**
 * The console's read-only view of reader analytics (issue 20) over the same daily rollups the
 * report API reads: page views and daily unique visitors (people and AI agents) per day, and page
 * ratings per day. Visitors are the site-wide daily counters (path id 0), so a day's figure is
 * the number of distinct daily hashes that day, as the API reports it.
 */
export function createReaderSeries(db: Db, now: () => Date): ConsoleReaderAnalytics {
  const pk = db.prepare<[string], { pk: number }>('SELECT pk FROM search_projects WHERE project_id = ?');
  const views = db.prepare<[number, number, number], { day: number; human: number; ai: number }>(
    'SELECT day, sum(views_human) AS human, sum(views_ai) AS ai FROM page_daily WHERE project_pk = ? AND day >= ? AND day < ? AND path_id <> 0 GROUP BY day',
  );
  const visitors = db.prepare<[number, number, number, number], { day: number; human: number; ai: number }>(
    'SELECT day, visitors_human AS human, visitors_ai AS ai FROM page_daily WHERE project_pk = ? AND day >= ? AND day < ? AND path_id = ?',
  );
  const ratings = db.prepare<[number, number, number], { day: number; up: number; down: number }>(
    `SELECT created_ms / ${DAY_MS} AS day, sum(helpful = 1) AS up, sum(helpful = 0) AS down FROM page_feedback
     WHERE project_pk = ? AND created_ms >= ? AND created_ms < ? GROUP BY day`,
  );

  return {
    series(project: Project, days: number) {
      const today = Math.floor(now().getTime() / DAY_MS);
      const from = today - days + 1;
      const labels = Array.from({ length: days }, (_, i) => new Date((from + i) * DAY_MS).toISOString().slice(0, 10));
      const fill = (rows: { day: number; value: number }[]) => {
        const byDay = new Map(rows.map((r) => [r.day, r.value]));
        return labels.map((label, i) => ({ label, value: byDay.get(from + i) ?? 0 }));
      };
      const p = pk.get(project.id)?.pk;
      const v = p === undefined ? [] : views.all(p, from, today + 1);
      const u = p === undefined ? [] : visitors.all(p, from, today + 1, SITE_PATH_ID);
      const r = p === undefined ? [] : ratings.all(p, from * DAY_MS, (today + 1) * DAY_MS);
      return [
        { id: 'views-human', title: 'Page views by people per day', kind: 'bar' as const, points: fill(v.map((x) => ({ day: x.day, value: x.human }))) },
        { id: 'views-ai', title: 'Page views by AI agents per day', kind: 'bar' as const, points: fill(v.map((x) => ({ day: x.day, value: x.ai }))) },
        { id: 'visitors', title: 'Unique visitors per day (people)', kind: 'line' as const, points: fill(u.map((x) => ({ day: x.day, value: x.human }))) },
        { id: 'helpful', title: 'Pages rated helpful per day', kind: 'bar' as const, points: fill(r.map((x) => ({ day: x.day, value: x.up }))) },
        { id: 'unhelpful', title: 'Pages rated not helpful per day', kind: 'bar' as const, points: fill(r.map((x) => ({ day: x.day, value: x.down }))) },
      ];
    },
  };
}
