import type { Db } from '../../data/db.js';
import { DAY_MS, dayOf } from '../analytics/normalise.js';
import { ctrPercent } from '../analytics/report.js';

export interface TermRow {
  term: string;
  hits: number;
  ctr: number;
}
export interface GapRow {
  term: string;
  searches: number;
  lastAt: string;
}

/** Rows kept per term table; the charts show the first ten. */
const TERMS_KEPT = 1000;

/**
 * The console's read-only view of search analytics over the same tables the report API reads:
 * the daily rollups (searches and click-through per day and term) and, for terms that found no
 * result, the raw events (kept analytics.rawRetentionDays). The CTR is computed as the API's.
 */
export function createSearchCharts(db: Db) {
  const pk = db.prepare<[string], { pk: number }>('SELECT pk FROM search_projects WHERE project_id = ?');
  const perDay = db.prepare<[number, number, number], { day: number; hits: number; clicked: number }>(
    'SELECT day, sum(hits) AS hits, sum(clicked) AS clicked FROM search_daily WHERE project_pk = ? AND day >= ? AND day < ? GROUP BY day',
  );
  const terms = db.prepare<[number, number, number, number], { term: string; hits: number; clicked: number }>(
    `SELECT t.norm AS term, sum(d.hits) AS hits, sum(d.clicked) AS clicked FROM search_daily d JOIN search_terms t ON t.id = d.term_id
     WHERE d.project_pk = ? AND d.day >= ? AND d.day < ? GROUP BY d.term_id ORDER BY hits DESC, term LIMIT ?`,
  );
  const gaps = db.prepare<[number, number, number], { term: string; n: number; last: number }>(
    `SELECT t.norm AS term, count(*) AS n, max(e.at_ms) AS last FROM search_events e JOIN search_terms t ON t.id = e.term_id
     WHERE e.project_pk = ? AND e.kind = 0 AND e.result_count = 0 AND e.at_ms >= ? GROUP BY e.term_id ORDER BY n DESC, term LIMIT ?`,
  );

  return {
    /** The last `days` whole days up to and including today (UTC). */
    report(projectId: string, days: number, now: Date) {
      const today = dayOf(now.getTime());
      const from = today - days + 1;
      const row = pk.get(projectId);
      const byDay = new Map((row ? perDay.all(row.pk, from, today + 1) : []).map((r) => [r.day, r]));
      const daysOut = Array.from({ length: days }, (_, i) => {
        const d = from + i;
        const r = byDay.get(d);
        return { day: new Date(d * DAY_MS).toISOString().slice(0, 10), searches: r?.hits ?? 0, ctr: r ? ctrPercent(r.clicked, r.hits) : 0 };
      });
      const top: TermRow[] = row ? terms.all(row.pk, from, today + 1, TERMS_KEPT).map((t) => ({ term: t.term, hits: t.hits, ctr: ctrPercent(t.clicked, t.hits) })) : [];
      const noResults: GapRow[] = row ? gaps.all(row.pk, from * DAY_MS, TERMS_KEPT).map((g) => ({ term: g.term, searches: g.n, lastAt: new Date(g.last).toISOString() })) : [];
      return { days: daysOut, top, noResults };
    },
  };
}
