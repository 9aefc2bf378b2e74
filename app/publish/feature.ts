import type { Config } from '../../config/schema.js';
import { createPublishStore } from '../../data/stores/publishes.js';
import type { AppContext } from '../context.js';
import type { Feature } from '../feature.js';
import type { SiteRegistry } from '../sites/registry.js';
import type { ExportRunner } from '../static-export/export-thread.js';
import { threadExporter, type PublishExporter } from './exporter.js';
import { pollBranchHeads } from './poll.js';
import { createPublishRouter } from './routes.js';
import { createPublishService, type PublishService } from './service.js';
import { createWebhookRouter } from './webhooks.js';

export interface PublishFeature extends Feature {
  service: PublishService;
}

/** Webhook delivery ids are remembered this long (hosts retry within hours, not weeks). */
const DELIVERY_MEMORY_MS = 30 * 24 * 3600_000;

/**
 * Publishing (issue 19, docs/publishing.md): the hosted update operations, push webhooks, the
 * branch poll, previews and rollback, all through one service that fills the site registry.
 */
export function createPublishFeature(ctx: AppContext, opts: { registry: SiteRegistry; exporter?: PublishExporter; exportRunner?: ExportRunner }): PublishFeature {
  let config: Readonly<Config> = ctx.config;
  const store = createPublishStore(ctx.db, () => ctx.clock.now());
  const service = createPublishService(ctx, { store, registry: opts.registry, exporter: opts.exporter ?? threadExporter(ctx.config.renderer.threads, opts.exportRunner) });
  return {
    name: 'publish',
    service,
    adminPublicRouter: createWebhookRouter(ctx, { service, store, config: () => config }),
    adminRouter: createPublishRouter(ctx, service),
    cron: [
      { name: 'publish-poll', schedule: ctx.config.publish.pollSchedule, run: () => pollBranchHeads(ctx, { service, store, config }) },
      {
        name: 'publish-housekeeping',
        schedule: '*/10 * * * *',
        run: () => ({ previewsExpired: service.expirePreviews(), deliveriesForgotten: store.forgetDeliveriesBefore(new Date(ctx.clock.now().getTime() - DELIVERY_MEMORY_MS)) }),
      },
    ],
    ready: () => ({ ok: true, critical: false, detail: `${service.running} publish(es) running; ${opts.registry.publishedSites().size} project site(s) published` }),
    start: () => service.restore(),
    reload: (next) => {
      config = next;
      service.reload(next);
    },
    stop: () => service.stop(),
  };
}
