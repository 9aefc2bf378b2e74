import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/schema.js';
import { openDatabase } from '../data/db.js';
import { createStores } from '../data/stores/index.js';
import { bootstrapFirstStart, syncDeclared } from './bootstrap.js';
import { systemClock, type Clock } from './clock.js';
import type { AppContext } from './context.js';
import { createLogger, type Logger } from './logger.js';
import { createMetrics } from './metrics.js';
import { createSecrets } from './secrets.js';

export const DATABASE_FILE = 'docs-appliance.db';

export interface ContextOptions {
  config: Readonly<Config>;
  clock?: Clock;
  log?: Logger;
  defaultMetrics?: boolean;
}

/** Open the state dir and the database, sync declared tenants and bootstrap a first start. */
export function createAppContext(opts: ContextOptions): AppContext {
  const { config } = opts;
  const clock = opts.clock ?? systemClock;
  const log = opts.log ?? createLogger(config.log.level);
  fs.mkdirSync(config.stateDir, { recursive: true, mode: 0o750 });
  const db = openDatabase(path.join(config.stateDir, DATABASE_FILE));
  log.info(
    {
      sqlite: {
        file: db.name,
        version: (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v,
        schemaVersion: db.pragma('user_version', { simple: true }),
        journalMode: db.pragma('journal_mode', { simple: true }),
        synchronous: db.pragma('synchronous', { simple: true }),
        busyTimeoutMs: db.pragma('busy_timeout', { simple: true }),
        foreignKeys: db.pragma('foreign_keys', { simple: true }),
      },
    },
    'database open (WAL for concurrent readers, synchronous=NORMAL (1), busy_timeout for the CLI beside the server)',
  );
  const now = () => clock.now();
  let stores;
  try {
    stores = createStores(db, now);
    syncDeclared(config, stores);
    bootstrapFirstStart(config, stores, log, db);
  } catch (err) {
    // The caller gets no context to close: close the connection here.
    db.close();
    throw err;
  }
  return {
    config,
    db,
    stores,
    log,
    clock,
    metrics: createMetrics({ defaultMetrics: opts.defaultMetrics ?? false }),
    secrets: createSecrets(config.stateDir),
    lifecycle: lifecycle(),
  };
}

/** The shutdown flag and signal, set together when the appliance's stop begins. */
function lifecycle(): AppContext['lifecycle'] {
  const controller = new AbortController();
  const state: AppContext['lifecycle'] = {
    shuttingDown: false,
    stopping: controller.signal,
    begin() {
      state.shuttingDown = true;
      controller.abort(new Error('the appliance is shutting down'));
    },
  };
  return state;
}
