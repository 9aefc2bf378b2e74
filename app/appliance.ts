import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { envVariableFor } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { buildAdminApp } from './admin-app.js';
import { syncDeclared, type ProjectChanges } from './bootstrap.js';
import type { Clock } from './clock.js';
import type { AppContext } from './context.js';
import { DatabaseDamagedError, explainDatabaseDamage } from '../data/db-damage.js';
import { createAppContext, DATABASE_FILE } from './create-context.js';
import { startCron, type CronRunner } from './cron.js';
import type { Feature } from './feature.js';
import { createFeatures } from './features.js';
import { livePart, projectChanges } from './lifecycle/reload-plan.js';
import type { Logger } from './logger.js';
import { readyUrls } from './ready-urls.js';
import { buildSiteApp } from './site-app.js';
import { acquireStateLock, StateLockDamagedError } from './state-lock.js';

export interface Appliance {
  ctx: AppContext;
  features: Feature[];
  adminPort: number;
  sitePort: number;
  cron: CronRunner;
  /** Graceful stop: readiness 503, listeners drain, cron and features stop, database closes. */
  stop(reason?: string): Promise<void>;
  /**
   * SIGHUP: sync the declared projects, then let every feature re-read the config. Throws
   * ReloadRefusedError (nothing applied) for a change only a restart can make.
   */
  reload(config: Readonly<Config>): Promise<ReloadSummary>;
}

/** What a reload applied: the projects it added, retired and changed (ids), and what it kept as it was. */
export interface ReloadSummary {
  projects: ProjectChanges;
  kept: string[];
}

/** The appliance could not start (a listener could not bind); nothing was left running. */
export class StartupError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'StartupError';
  }
}

/** A damaged database is an expected refusal (one line naming the recovery), not a crash with a stack. */
function asStartupError(err: unknown, dbFile: string): unknown {
  const explained = explainDatabaseDamage(err, dbFile);
  return explained instanceof DatabaseDamagedError ? new StartupError(explained.message, explained.code) : err;
}

/**
 * Start order matters: the state-dir lock first (a second `serve` must not touch the database or
 * any job), then both listeners (a port in use ends the start before any job is recovered or cron
 * runs), then the features' background work. A failure at any step undoes the steps before it.
 */
export async function startAppliance(opts: { config: Readonly<Config>; clock?: Clock; log?: Logger }): Promise<Appliance> {
  let lock: ReturnType<typeof acquireStateLock>;
  try {
    lock = acquireStateLock(opts.config.stateDir);
  } catch (err) {
    throw err instanceof StateLockDamagedError ? new StartupError(err.message, err.code) : err;
  }
  const servers: http.Server[] = [];
  const started: Feature[] = [];
  let ctx: AppContext | undefined;
  try {
    ctx = createAppContext({ ...opts, defaultMetrics: true });
    const features = createFeatures(ctx);
    const admin = buildAdminApp(ctx, features);
    const site = buildSiteApp(ctx, features);
    const { config } = ctx;
    const samePort = config.admin.port !== 0 && config.admin.port === config.site.port;
    const hint = samePort ? ` (admin.port and site.port are both ${config.admin.port}; give each listener its own port)` : '';
    const adminServer = await listen(admin, 'admin', config.admin.port, config.admin.host, hint, ctx.log);
    servers.push(adminServer);
    const siteServer = await listen(site, 'site', config.site.port, config.site.host, hint, ctx.log);
    servers.push(siteServer);
    for (const f of features) {
      started.push(f);
      await f.start?.();
    }
    const cron = startCron(features.flatMap((f) => f.cron ?? []), ctx.log, ctx.stores.settings);
    const adminPort = (adminServer.address() as AddressInfo).port;
    const sitePort = (siteServer.address() as AddressInfo).port;
    // The one line that says the appliance is up, and where to go: site, admin API, console, initial key.
    ctx.log.info({ ...readyUrls(config, { adminPort, sitePort }), adminPort, sitePort, stateDir: config.stateDir, lockFile: lock.file }, 'listening');
    return wire(ctx, features, { adminServer, siteServer, adminPort, sitePort, cron, releaseLock: lock.release });
  } catch (err) {
    await Promise.all(servers.map(close));
    for (const f of started.reverse()) {
      try {
        await f.stop?.();
      } catch (stopErr) {
        ctx?.log.error({ err: stopErr, feature: f.name }, 'feature failed to stop after a failed start');
      }
    }
    ctx?.db.close();
    lock.release();
    throw asStartupError(err, path.join(opts.config.stateDir, DATABASE_FILE));
  }
}

function wire(
  ctx: AppContext,
  features: Feature[],
  parts: { adminServer: http.Server; siteServer: http.Server; adminPort: number; sitePort: number; cron: CronRunner; releaseLock: () => void },
): Appliance {
  const { adminServer, siteServer, adminPort, sitePort, cron } = parts;
  let stopping: Promise<void> | undefined;
  const stop = (reason = 'stop requested') =>
    (stopping ??= (async () => {
      ctx.lifecycle.begin();
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
      parts.releaseLock();
      ctx.log.info('stopped');
    })());

  let running = ctx.config;
  const reload = async (next: Readonly<Config>): Promise<ReloadSummary> => {
    const { config, kept } = livePart(running, next);
    // One transaction: a sync that fails half-way (a domain still taken) changes no project.
    const synced = ctx.db.transaction(() => syncDeclared(config, ctx.stores)).immediate();
    const projects = projectChanges(running, config, synced);
    running = config;
    for (const f of features) await f.reload?.(config);
    return { projects, kept };
  };
  return { ctx, features, adminPort, sitePort, cron, stop, reload };
}

function listen(app: Express, name: string, port: number, host: string, hint: string, log: Logger): Promise<http.Server> {
  return new Promise((resolve, reject) => {
    const server = http.createServer(app);
    // Slow-loris protection: a client must send its headers and body within these.
    server.headersTimeout = 30_000;
    server.requestTimeout = 300_000;
    server.once('error', (err: NodeJS.ErrnoException) => {
      const why = err.code === 'EADDRINUSE' ? 'the address is already in use' : err.code === 'EACCES' ? 'permission denied' : err.message;
      reject(new StartupError(`The ${name} listener cannot listen on ${host}:${port}: ${why}${err.code ? ` (${err.code})` : ''}${err.code === 'EADDRINUSE' ? hint : ''}${settingHint(name, err.code)}`, err.code));
    });
    server.listen(port, host, () => {
      server.removeAllListeners('error');
      // Once listening, an error (EMFILE on accept, say) is logged; unhandled it would exit the process.
      server.on('error', (err) => log.error({ err, listener: name }, 'listener error'));
      resolve(server);
    });
  });
}

/** The setting to change, and its environment variable: the port when it is taken or privileged, the host when it is not ours. */
function settingHint(name: string, code: string | undefined): string {
  const key = code === 'EADDRINUSE' || code === 'EACCES' ? `${name}.port` : code === 'EADDRNOTAVAIL' ? `${name}.host` : undefined;
  if (!key) return '';
  const env = envVariableFor(key);
  const what = key.endsWith('.port') ? (code === 'EACCES' ? 'a port of 1024 or above' : 'a free port') : 'an address of this machine (0.0.0.0: all)';
  return `; set ${key} in the config file${env ? ` or ${env}` : ''} to ${what}`;
}

/** Stop accepting, let in-flight requests finish, drop idle keep-alive sockets at once. */
function close(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
