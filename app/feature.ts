import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Router } from 'express';
import type { Config } from '../config/schema.js';
import type { CronJob } from './cron.js';

/** What a readiness check reports. A failing `critical` check makes /readyz answer 503. */
export interface ReadyCheck {
  ok: boolean;
  critical: boolean;
  detail?: string;
  /** The site check: each site this appliance is configured to serve, and whether it is (docs/operations.md, "Readiness"). */
  sites?: SiteReadiness[];
}

export interface SiteReadiness {
  /** `bundle` (staticExport or the first-start example) or the host name a project's site answers at. */
  site: string;
  served: boolean;
  /** Why not, or what else is going on (a failed reload while the old version stays served). */
  detail?: string;
  /** The last load was refused in a way retrying cannot cure (HTTP 403/404/410, a bad archive). */
  refused?: boolean;
}

/**
 * One slice of the appliance (agent, analytics, static export, site...). The wiring mounts its
 * routers, starts and stops it, and collects its cron jobs and readiness; a feature gets its
 * dependencies through the AppContext it was created with.
 */
export interface Feature {
  name: string;
  /** Admin routes that authenticate themselves (signed links): mounted before admin-key auth. */
  adminPublicRouter?: Router;
  /** Admin routes behind admin-key auth (/v1, /v2). */
  adminRouter?: Router;
  /** Routes on the site listener (events, the served site). Mounted in feature order. */
  siteRouter?: Router;
  /**
   * Tried before Express on the site listener for every request: answers it completely and
   * returns true, or returns false (touching nothing) to pass it to the routers. For the hot
   * static path only: no request-id middleware, access log or Express helpers run for it.
   */
  siteFastPath?: (req: IncomingMessage, res: ServerResponse) => boolean;
  cron?: CronJob[];
  ready?: () => ReadyCheck;
  start?: () => Promise<void> | void;
  /** SIGHUP: re-read what can change without a restart (the config is loaded anew and passed). */
  reload?: (config: Readonly<Config>) => Promise<void> | void;
  /** Stop taking work and release resources; awaited during shutdown. */
  stop?: () => Promise<void> | void;
}
