import client from 'prom-client';
import type { Config } from '../../config/schema.js';
import { createSearchEventStore } from '../../data/stores/search-events.js';
import { createSearchReportStore } from '../../data/stores/search-report.js';
import type { AppContext } from '../context.js';
import type { Feature } from '../feature.js';
import { createCursorCodec, CURSOR_TTL_MS } from './cursor.js';
import { createIngestRouter, type BeaconForward } from './ingest-router.js';
import { servedSiteProjectResolver, type ServedSiteInfo, type SiteProjectResolver } from './project-resolver.js';
import { createReportRouter } from './report-router.js';
import { createReportService } from './report.js';
import { createSessionTracker } from './sessions.js';
import { createWriteBuffer } from './write-buffer.js';
import { DAY_MS } from './normalise.js';
import type { ReaderIngest } from '../reader-analytics/ingest.js';
import { carriesReplicaKey } from '../replica/auth.js';

export interface AnalyticsFeature extends Feature {
  /** Write the beacons waiting in memory now (tests, reports). */
  flush(): number;
  /** Forget cached rankings (and with `days`, cached day vectors), as a restart would. */
  clearReportCache(days?: boolean): void;
  /** The retention step of the cron job, callable directly. */
  applyRetention(): { deleted: number; fenceId: number };
}

const FENCE_KEY = 'analytics.retention.fence';

/**
 * Search analytics (DESIGN 3.3, docs/analytics.md): beacons on the site listener, the report
 * under /v1/analytics, and raw-event retention by cron. Rollups are kept at ingest.
 */
export function createAnalyticsFeature(ctx: AppContext, opts: { servedSite: ServedSiteInfo; resolveProject?: SiteProjectResolver; readerIngest?: ReaderIngest; forward?: BeaconForward }): AnalyticsFeature {
  let config: Readonly<Config> = ctx.config;
  const events = createSearchEventStore(ctx.db);
  const reports = createSearchReportStore(ctx.db);
  const eventCounter = new client.Counter({
    name: 'docs_appliance_search_events_total',
    help: 'Search and click events: accepted or rejected at ingest, stored after de-duplication, or dropped by a failed write',
    labelNames: ['outcome'] as const,
    registers: [ctx.metrics.registry],
  });
  const refusedCounter = new client.Counter({
    name: 'docs_appliance_beacon_requests_refused_total',
    help: 'Beacon requests (POST /_/events) answered 503 because their events could not be stored, by catalogue code (STORAGE_FULL, STORAGE_READ_ONLY, STORAGE_BUSY; INTERNAL for anything else, answered 500)',
    labelNames: ['code'] as const,
    registers: [ctx.metrics.registry],
  });
  const buffer = createWriteBuffer({
    store: events,
    sessions: createSessionTracker(),
    log: ctx.log,
    onWritten: (stored, dropped) => {
      if (stored) eventCounter.inc({ outcome: 'stored' }, stored);
      if (dropped) eventCounter.inc({ outcome: 'dropped' }, dropped);
    },
  });
  const report = createReportService(reports, { now: () => ctx.clock.now().getTime() });
  const cursors = createCursorCodec(ctx.secrets);

  /**
   * Deletes raw events past `rawRetentionDays`, but only those at or below the fence: the
   * largest id as of a run at least a cursor's lifetime ago. A live cursor's pin is above the
   * fence, so the events its later pages subtract are never deleted under it.
   */
  function applyRetention(): { deleted: number; fenceId: number } {
    const now = ctx.clock.now().getTime();
    const raw = ctx.stores.settings.get(FENCE_KEY);
    const fence = raw ? (JSON.parse(raw) as { id: number; atMs: number }) : null;
    let deleted = 0;
    let fenceId = 0;
    if (fence && fence.atMs <= now - CURSOR_TTL_MS) {
      fenceId = fence.id;
      deleted = events.deleteRawBefore(now - config.analytics.rawRetentionDays * DAY_MS, fence.id);
    }
    if (!fence || fence.atMs <= now - CURSOR_TTL_MS) ctx.stores.settings.set(FENCE_KEY, JSON.stringify({ id: events.maxId(), atMs: now }));
    return { deleted, fenceId };
  }

  /**
   * After a start, load each project's all-time totals and its last week of closed days in the
   * background, one step per event-loop turn (tens of ms each at ten million events): the first
   * reports then answer like later ones instead of paying the cold reads (docs/analytics.md).
   */
  const WARM_DAYS = 8;
  let warming: NodeJS.Immediate | null = null;
  function warmUp(): void {
    const steps: [string, number][] = [];
    for (const p of ctx.stores.projects.list()) for (let step = 0; step <= WARM_DAYS; step++) steps.push([p.id, step]);
    const today = Math.floor(ctx.clock.now().getTime() / DAY_MS);
    const next = () => {
      const s = steps.shift();
      if (!s) return void (warming = null);
      try {
        report.warm(s[0], s[1], today);
      } catch (err) {
        ctx.log.warn({ err }, 'analytics: warming the report caches failed; reports load on demand');
        return void (warming = null);
      }
      warming = setImmediate(next);
    };
    warming = setImmediate(next);
  }

  return {
    name: 'analytics',
    start: warmUp,
    siteRouter: createIngestRouter({ config: () => config, clock: ctx.clock, resolveProject: opts.resolveProject ?? servedSiteProjectResolver(ctx.stores, opts.servedSite),
      buffer,
      readers: opts.readerIngest,
      ...(opts.forward ? { forward: opts.forward } : {}),
      fromReplica: (req, projectId) => carriesReplicaKey(ctx.stores, req, projectId),
      log: ctx.log,
      onRefused: (code) => refusedCounter.inc({ code }),
      onChecked: (accepted, rejected) => {
        if (accepted) eventCounter.inc({ outcome: 'accepted' }, accepted);
        if (rejected) eventCounter.inc({ outcome: 'rejected' }, rejected);
      },
    }),
    adminRouter: createReportRouter({ config: () => config, stores: ctx.stores, clock: ctx.clock, report, cursors, flush: () => buffer.flush() }),
    cron: [
      { name: 'analytics-retention', schedule: '23 * * * *', run: applyRetention },
    ],
    reload(next) {
      config = next;
      report.clearCache();
    },
    stop() {
      if (warming) clearImmediate(warming);
      warming = null;
      buffer.flush();
    },
    flush: () => buffer.flush(),
    clearReportCache: (days?: boolean) => report.clearCache(days),
    applyRetention,
  };
}
