import { Router } from 'express';
import type { AppContext } from '../../context.js';
import { renderPage } from '../render.js';
import type { ConsoleDeps } from '../router.js';
import { createSearchCharts, type GapRow, type TermRow } from '../search-charts.js';
import { barChart, hBarChart, lineChart } from '../svg-chart.js';
import { arraySource, buildTable, tableCsv, type TableSpec } from '../table.js';
import { timeCell } from '../time.js';
import { sendCsv } from './csv.js';

const RANGES = [7, 30, 90] as const;

/** Search analytics as server-drawn charts and tables; reader analytics when a service provides them. */
export function createAnalyticsRouter(ctx: AppContext, deps: ConsoleDeps): Router {
  const router = Router({ mergeParams: true });
  const charts = createSearchCharts(ctx.db);

  router.get('/analytics', (req, res) => {
    const { org, project } = res.locals;
    const base = `/console/orgs/${encodeURIComponent(org.id)}/projects/${project.id}/analytics`;
    const days = RANGES.find((d) => String(d) === req.query.days) ?? 30;
    const data = charts.report(project.id, days, ctx.clock.now());
    type DayRow = (typeof data.days)[number];
    const daysSpec: TableSpec<DayRow> = {
      id: 'days',
      caption: 'Searches and click-through per day',
      empty: 'No searches in this range. Readers’ searches on the served site are counted here (no cookies, no addresses); widen the range or check that a site is served.',
      defaultSort: 'day',
      defaultDir: 'desc',
      pageSize: 31,
      source: arraySource(data.days),
      columns: [
        { key: 'day', label: 'Day (UTC)', value: (r) => r.day },
        { key: 'searches', label: 'Searches', numeric: true, value: (r) => r.searches },
        { key: 'ctr', label: 'Click-through %', numeric: true, value: (r) => r.ctr },
      ],
    };
    const termsSpec: TableSpec<TermRow> = {
      id: 'terms',
      caption: 'Top search terms',
      empty: 'No searches in this range. Readers’ searches on the served site are counted here (no cookies, no addresses); widen the range or check that a site is served.',
      defaultSort: 'hits',
      defaultDir: 'desc',
      source: arraySource(data.top),
      columns: [
        { key: 'term', label: 'Term', value: (r) => r.term },
        { key: 'hits', label: 'Searches', numeric: true, value: (r) => r.hits },
        { key: 'ctr', label: 'Click-through %', numeric: true, value: (r) => r.ctr },
      ],
    };
    const gapsSpec: TableSpec<GapRow> = {
      id: 'gaps',
      caption: 'Terms with no results (content gaps)',
      empty: 'Every search in this range found something.',
      defaultSort: 'searches',
      defaultDir: 'desc',
      source: arraySource(data.noResults),
      columns: [
        { key: 'term', label: 'Term', value: (r) => r.term },
        { key: 'searches', label: 'Searches', numeric: true, value: (r) => r.searches },
        { key: 'last', label: 'Last searched', value: (r) => r.lastAt, cell: (r) => timeCell(r.lastAt, ctx.clock.now()) },
      ],
    };
    for (const spec of [daysSpec, termsSpec, gapsSpec] as TableSpec<unknown>[]) {
      if (req.query.csv === spec.id) return sendCsv(res, `${project.id}-${spec.id}-${days}d.csv`, tableCsv(spec, req.query));
    }
    const short = (day: string) => day.slice(5);
    // Same day labels as the search charts; a series with nothing in the range says so instead of an empty chart.
    const reader = deps.readerAnalytics
      ? deps.readerAnalytics.series(project, days).map((s) => {
          const points = s.points.map((p) => ({ ...p, label: /^\d{4}-\d\d-\d\d$/.test(p.label) ? short(p.label) : p.label }));
          const empty = points.every((p) => p.value === 0);
          return {
            title: s.title,
            svg: empty ? null : s.kind === 'line' ? lineChart(`reader-${s.id}`, s.title, points, { unit: s.unit ?? '' }) : barChart(`reader-${s.id}`, s.title, points, { unit: s.unit ?? '' }),
          };
        })
      : null;
    renderPage(res, 'analytics', {
      title: `${project.name} — search analytics`,
      section: 'analytics',
      base,
      days,
      ranges: RANGES,
      charts: {
        searches: barChart('chart-searches', `Searches per day, last ${days} days`, data.days.map((d) => ({ label: short(d.day), value: d.searches }))),
        ctr: lineChart('chart-ctr', `Click-through per day, last ${days} days (%)`, data.days.map((d) => ({ label: short(d.day), value: d.ctr })), { unit: '%', max: 100 }),
        terms: hBarChart('chart-terms', 'Top 10 search terms', data.top.slice(0, 10).map((t) => ({ label: t.term, value: t.hits }))),
        gaps: hBarChart('chart-gaps', 'Top 10 terms with no results', data.noResults.slice(0, 10).map((t) => ({ label: t.term, value: t.searches }))),
      },
      daysTable: buildTable(daysSpec, req.query, base),
      termsTable: buildTable(termsSpec, req.query, base),
      gapsTable: buildTable(gapsSpec, req.query, base),
      reader,
    });
  });
  return router;
}
