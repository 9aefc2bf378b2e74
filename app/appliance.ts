import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { Config } from '../config/schema.js';
import { buildAdminApp } from './admin-app.js';
import type { Clock } from './clock.js';
import type { AppContext } from './context.js';
import { createAppContext } from './create-context.js';
import { startCron, type CronRunner } from './cron.js';
import type { Feature } from './feature.js';
import { createFeatures } from './features.js';
import type { Logger } from './logger.js';
import { buildSiteApp } from './site-app.js';

export interface Appliance {
  ctx: AppContext;
  features: Feature[];
  adminPort: number;
  sitePort: number;
  cron: CronRunner;
  /** Graceful stop: readiness 503, listeners drain, cron and features stop, database closes. */
  stop(reason?: string): Promise<void>;
  reload(config: Readonly<Config>): Promise<void>;
}

export async function startAppliance(opts: { config: Readonly<Config>; clock?: Clock; log?: Logger }): Promise<Appliance> {
  const ctx = createAppContext({ ...opts, defaultMetrics: true });
  const features = createFeatures(ctx);
  const admin = buildAdminApp(ctx, features);
  const site = buildSiteApp(ctx, features);
  for (const f of features) await f.start?.();
  const cron = startCron(features.flatMap((f) => f.cron ?? []), ctx.log, ctx.stores.settings);
  const adminServer = await listen(admin, ctx.config.admin.port, ctx.config.admin.host);
  const siteServer = await listen(site, ctx.config.site.port, ctx.config.site.host);
  const adminPort = (adminServer.address() as AddressInfo).port;
  const sitePort = (siteServer.address() as AddressInfo).port;
  ctx.log.info({ adminPort, sitePort, stateDir: ctx.config.stateDir }, 'listening');

  let stopping: Promise<void> | undefined;
  const stop = (reason = 'stop requested') =>
    (stopping ??= (async () => {
      ctx.lifecycle.shuttingDown = true;
      ctx.log.info({ reason }, 'shutting down: readiness 503, draining requests');
      await Promise.all([close(adminServer), close(siteServer)]);
      await cron.stop();
      for (const f of [...features].reverse()) {
        try {
          await f.stop?.();
        } catch (err) {
          ctx.log.error({ err, feature: f.name }, 'feature failed to stop cleanly');
        }
      }
      ctx.db.close();
      ctx.log.info('stopped');
    })());

  const reload = async (config: Readonly<Config>) => {
    for (const f of features) await f.reload?.(config);
  };
  return { ctx, features, adminPort, sitePort, cron, stop, reload };
}

function listen(app: Express, port: number, host: string): Promise<http.Server> {
  return new Promise((resolve, reject) => {
    const server = http.createServer(app);
    // Slow-loris protection: a client must send its headers and body within these.
    server.headersTimeout = 30_000;
    server.requestTimeout = 300_000;
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** Stop accepting, let in-flight requests finish, drop idle keep-alive sockets at once. */
function close(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
