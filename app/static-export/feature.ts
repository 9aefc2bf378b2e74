import type { AppContext } from '../context.js';
import type { Feature } from '../feature.js';
import { createDownloadRouter } from './download.js';
import { exportFiles } from './files.js';
import { createExportQueue } from './queue.js';
import { applyRetention } from './retention.js';
import { createStaticExportRouter, type ExportSettings } from './routes.js';
import type { ExportQueue } from './queue.js';
import type { ExportFiles } from './files.js';
import type { ExportRunner } from './export-thread.js';

/** What the console (app/console) uses to start exports and hand out bundle links by the API's rules. */
export interface StaticExportFeature extends Feature {
  queue: ExportQueue;
  files: ExportFiles;
  settings: ExportSettings;
}

/**
 * Static export (DESIGN 3.4): start/poll/bundle operations, the signed download, the durable job
 * queue on the renderer's worker pool, and retention of old exports. Decisions: docs/static-export.md.
 */
export function createStaticExportFeature(ctx: AppContext, deps: { exportRunner?: ExportRunner } = {}): StaticExportFeature {
  const files = exportFiles(ctx.config.stateDir);
  const queue = createExportQueue(ctx, files, deps.exportRunner ? { runner: deps.exportRunner } : {});
  const settings: ExportSettings = {
    linkTtlSeconds: ctx.config.staticExport.linkTtlSeconds,
    retentionDays: ctx.config.staticExport.retentionDays,
    maxQueuedJobsPerOrg: ctx.config.staticExport.maxQueuedJobsPerOrg,
    maxQueuedJobs: ctx.config.staticExport.maxQueuedJobs,
  };
  return {
    name: 'static-export',
    queue,
    files,
    settings,
    adminPublicRouter: createDownloadRouter(ctx, files),
    adminRouter: createStaticExportRouter(ctx, { queue, files, settings }),
    cron: [
      {
        name: 'static-export-retention',
        schedule: '41 * * * *',
        run: () => applyRetention({ store: ctx.stores.exportJobs, files, now: ctx.clock.now(), retentionDays: settings.retentionDays, log: ctx.log }),
      },
    ],
    ready: () => ({ ok: true, critical: false, detail: `${queue.running} export(s) running, ${ctx.stores.exportJobs.countQueued()} queued` }),
    start: () => queue.start(),
    reload: (config) => {
      settings.linkTtlSeconds = config.staticExport.linkTtlSeconds;
      settings.retentionDays = config.staticExport.retentionDays;
      settings.maxQueuedJobsPerOrg = config.staticExport.maxQueuedJobsPerOrg;
      settings.maxQueuedJobs = config.staticExport.maxQueuedJobs;
      queue.setConcurrency(config.staticExport.concurrency);
    },
    stop: () => queue.stop(),
  };
}
