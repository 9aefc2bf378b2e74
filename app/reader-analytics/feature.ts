import client from 'prom-client';
import type { Config } from '../../config/schema.js';
import { createPageFeedbackStore, type PageFeedbackStore } from '../../data/stores/page-feedback.js';
import { createPageViewStore, DAY_MS } from '../../data/stores/page-views.js';
import type { SiteProjectResolver } from '../analytics/project-resolver.js';
import type { AppContext } from '../context.js';
import type { Feature } from '../feature.js';
import { createAgentViewWatcher } from './agent-views.js';
import { clientAddressOf } from './client-address.js';
import { createReaderIngest, type ReaderIngest } from './ingest.js';
import { createReaderReportRouter } from './report-router.js';
import { createViewReport } from './view-report.js';
import { createVisitorHasher } from './visitor.js';

export interface ReaderAnalyticsFeature extends Feature {
  /** The write path of reader events (the beacon endpoint and forwarded beacons call `accept`). */
  ingest: ReaderIngest;
  /** Feedback records: list, get, status changes (the console uses this store too). */
  feedback: PageFeedbackStore;
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
export function createReaderAnalyticsFeature(ctx: AppContext, opts: { resolveProject: SiteProjectResolver }): ReaderAnalyticsFeature {
  let config: Readonly<Config> = ctx.config;
  const viewStore = createPageViewStore(ctx.db);
  const feedback = createPageFeedbackStore(ctx.db);
  const report = createViewReport(ctx.db);
  const counter = new client.Counter({
    name: 'docs_appliance_reader_events_total',
    help: 'Page views and feedback: stored, duplicate (same view id), ignored (bots, or collection off) or dropped by a failed write',
    labelNames: ['outcome'] as const,
    registers: [ctx.metrics.registry],
  });
  const ingest = createReaderIngest({
    views: viewStore,
    feedback,
    hasher: createVisitorHasher(ctx.stores.settings),
    log: ctx.log,
    enabled: () => config.analytics.readers.enabled,
    onBatch: (r) => report.apply(r),
    onOutcome: (outcome, n) => counter.inc({ outcome }, n),
  });
  let clientAddress = clientAddressOf(config.admin.trustProxy);
  const watcher = createAgentViewWatcher({ ingest, resolveProject: opts.resolveProject, now: () => ctx.clock.now().getTime(), clientAddress: (req) => clientAddress(req) });

  function applyRetention() {
    const now = ctx.clock.now().getTime();
    ingest.flush();
    const deleted = viewStore.deleteRawBefore(now - config.analytics.rawRetentionDays * DAY_MS);
    // Yesterday stays open: a batch received before midnight may be written just after it.
    const closed = viewStore.closeDaysBefore(Math.floor(now / DAY_MS) - 1);
    return { deleted, closed };
  }

  return {
    name: 'reader-analytics',
    siteFastPath: watcher,
    adminRouter: createReaderReportRouter({ stores: ctx.stores, views: report, feedback, flush: () => ingest.flush() }),
    cron: [{ name: 'reader-analytics-retention', schedule: '27 * * * *', run: applyRetention }],
    reload(next) {
      config = next;
      clientAddress = clientAddressOf(next.admin.trustProxy);
    },
    stop() {
      ingest.flush();
    },
    ingest,
    feedback,
    flush: () => ingest.flush(),
    clearReportCache: () => report.clearCache(),
    applyRetention,
  };
}
