import type { Config } from '../config/schema.js';
import type { Db } from '../data/db.js';
import type { Stores } from '../data/stores/index.js';
import type { Clock } from './clock.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import type { Secrets } from './secrets.js';

/** The dependencies every router, service and cron job is given. Built once by the wiring. */
export interface AppContext {
  config: Readonly<Config>;
  db: Db;
  stores: Stores;
  log: Logger;
  metrics: Metrics;
  clock: Clock;
  secrets: Secrets;
  /**
   * Set when shutdown begins: /readyz answers 503 and new work is refused. `stopping` aborts at the
   * same moment, so a request that waits on an event (a replica's long-poll) answers at once
   * instead of holding the drain until shutdown.timeoutMs.
   */
  lifecycle: { shuttingDown: boolean; stopping: AbortSignal; /** Called once by the appliance's stop. */ begin(): void };
}
