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
  /** Set when shutdown begins: /readyz answers 503 and new work is refused. */
  lifecycle: { shuttingDown: boolean };
}
