import client from 'prom-client';
import type { Config } from '../../config/schema.js';
import { createPageFeedbackStore, type PageFeedbackStore } from '../../data/stores/page-feedback.js';
import { createPageViewStore, DAY_MS } from '../../data/stores/page-views.js';
import type { BeaconForward } from '../analytics/ingest-router.js';
import type { SiteProjectResolver } from '../analytics/project-resolver.js';
import type { AppContext } from '../context.js';
import type { Feature } from '../feature.js';
import { createAgentViewWatcher } from './agent-views.js';
import { clientAddressOf } from './client-address.js';
import { createReaderIngest, type ReaderIngest } from './ingest.js';
import { createReaderReportRouter } from './report-router.js';
import { createViewReport } from './view-report.js';
import { createFeedbackByPage, type FeedbackByPageIndex } from './feedback-by-page.js';
import { createVisitorHasher } from './visitor.js';
import { collectionByHost } from './site-collection.js';
import type { ServedSite } from '../site/served-site.js';

export interface ReaderAnalyticsFeature extends Feature {
  /** The write path of reader events (the beacon endpoint and forwarded beacons call `accept`). */
  ingest: ReaderIngest;
  /** Feedback records: list, get, status changes (the console uses this store too). */
  feedback: PageFeedbackStore;
  /** Feedback counts per page (the by-page report; the console may show the same). */
  feedbackByPage: FeedbackByPageIndex;
  flush(): number;
  clearReportCache(): void;
  /** The retention step of the cron job, callable directly. */
  applyRetention(): { deleted: number; closed: number };
}

/**
 * Reader analytics (issue 20, docs/analytics.md "Reader analytics"): page views, unique visitors
 * and page feedback, collected through the search beacon's endpoint and the site listener (AI
 * agents), reported under /v1/analytics beside the search report.
 */
export function createReaderAnalyticsFeature(
  ctx: AppContext,
  opts: { resolveProject: SiteProjectResolver; siteFor?: (host: string | undefined) => ServedSite | undefined; forward?: BeaconForward | undefined },
): ReaderAnalyticsFeature {
  let config: Readonly<Config> = ctx.config;
  const viewStore = createPageViewStore(ctx.db);
  const feedback = createPageFeedbackStore(ctx.db);
  let warnedDay = -1;
  viewStore.onOverflow((day) => {
    if (day === warnedDay) return;
    warnedDay = day;
    ctx.log.warn({ day: new Date(day * DAY_MS).toISOString().slice(0, 10) }, 'reader analytics: more (visitor, page) pairs today than remembered; further new pairs may count a visitor again');
  });
  const report = createViewReport(ctx.db);
  const feedbackByPage = createFeedbackByPage(ctx.db);
  const counter = new client.Counter({
    name: 'docs_appliance_reader_events_total',
    help: 'Page views and feedback: rejected at the beacon endpoint (malformed), stored, duplicate (same view id), ignored (bots, or collection off) or dropped by a failed write',
    labelNames: ['outcome'] as const,
    registers: [ctx.metrics.registry],
  });
  const ingest = createReaderIngest({
    views: viewStore,
    feedback,
    hasher: createVisitorHasher(ctx.stores.settings),
    log: ctx.log,
    enabled: () => config.analytics.readers.enabled,
    ...(opts.siteFor ? { siteCollection: collectionByHost(opts.siteFor) } : {}),
    onBatch: (r) => report.apply(r),
    onOutcome: (outcome, n) => counter.inc({ outcome }, n),
  });
  let clientAddress = clientAddressOf(config.admin.trustProxy);
  const watcher = createAgentViewWatcher({ ingest, resolveProject: opts.resolveProject, now: () => ctx.clock.now().getTime(), clientAddress: (req) => clientAddress(req), forward: opts.forward });

  function applyRetention() {
    const now = ctx.clock.now().getTime();
    ingest.flush();
    const deleted = viewStore.deleteRawBefore(now - config.analytics.rawRetentionDays * DAY_MS);
    // Yesterday stays open: a batch received before midnight may be written just after it.
    const closed = viewStore.closeDaysBefore(Math.floor(now / DAY_MS) - 1);
    return { deleted, closed };
  }

  /**
   * After a start, load each project's all-time vectors, its last eight days and its feedback
   * index in the background, one step per event-loop turn, so the first reports do not pay the
   * cold reads (docs/analytics.md, "Reader analytics").
   */
  let warming: NodeJS.Immediate | null = null;
  function warmUp(): void {
    const today = Math.floor(ctx.clock.now().getTime() / DAY_MS);
    const steps: (() => void)[] = [];
    for (const p of ctx.stores.projects.list()) {
      steps.push(() => report.page(p.id, 'views', { fromMs: null, toMs: null }, 1, 0));
      for (let d = today - 8; d <= today; d++) steps.push(() => report.page(p.id, 'views', { fromMs: d * DAY_MS, toMs: (d + 1) * DAY_MS }, 1, 0));
      steps.push(() => feedbackByPage.page(p.id, { fromMs: null, toMs: null, sources: null, statuses: null }, 1));
    }
    const next = () => {
      const step = steps.shift();
      if (!step) return void (warming = null);
      try {
        step();
      } catch (err) {
        ctx.log.warn({ err }, 'reader analytics: warming the report caches failed; reports load on demand');
        return void (warming = null);
      }
      warming = setImmediate(next);
    };
    warming = setImmediate(next);
  }

  return {
    name: 'reader-analytics',
    start: warmUp,
    siteFastPath: watcher,
    adminRouter: createReaderReportRouter({ stores: ctx.stores, views: report, feedback, byPage: feedbackByPage, flush: () => ingest.flush() }),
    cron: [{ name: 'reader-analytics-retention', schedule: '27 * * * *', run: applyRetention }],
    reload(next) {
      config = next;
      clientAddress = clientAddressOf(next.admin.trustProxy);
    },
    stop() {
      if (warming) clearImmediate(warming);
      warming = null;
      ingest.flush();
    },
    ingest,
    feedback,
    feedbackByPage,
    flush: () => ingest.flush(),
    clearReportCache: () => {
      report.clearCache();
      feedbackByPage.clearCache();
    },
    applyRetention,
  };
}
