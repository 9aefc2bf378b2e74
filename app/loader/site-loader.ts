import fs from 'node:fs';
import type { Config } from '../../config/schema.js';
import type { SettingsStore } from '../../data/stores/settings.js';
import type { Logger } from '../logger.js';
import { BundleError, FetchError } from './errors.js';
import { loadBundle, type LoadedSite } from './load-bundle.js';
import { pruneVersions, readActive, removeStaleTemps, writeActive, type ActiveRecord } from './sites-dir.js';

export type StaticExportConfig = Config['staticExport'];

/** What a refusal asks of the operator (log and readiness). */
export const REFUSED_HINT = 'retrying will not cure it: replace staticExport.bundleUrl or the bundle behind it, then SIGHUP';

/**
 * A failure retrying cannot cure: the source refused (a download error that is not retryable,
 * such as HTTP 403, 404 or 410) or the archive is not one to serve (any other BundleError: bad
 * archive, manifest mismatch, failed verification). A network error, a timeout, a 5xx, a stalled
 * verification (VERIFY_TIMEOUT) or a fault of this machine (a full disk) may pass by itself.
 */
function isRefusal(err: unknown): boolean {
  if (err instanceof FetchError) return !err.retryable;
  if (!(err instanceof BundleError) || err.code === 'VERIFY_TIMEOUT' || err.code === 'LOAD_CANCELLED') return false;
  // Extraction wraps this machine's own faults (ENOSPC writing an entry, EMFILE): those may pass.
  for (let cause: unknown = err.cause; cause; cause = (cause as { cause?: unknown }).cause) {
    if (/^E[A-Z]+$/.test(String((cause as { code?: unknown }).code ?? ''))) return false;
  }
  return true;
}

export interface LoaderStatus {
  /** What runs now, if anything. */
  phase: 'idle' | 'loading' | 'exporting';
  lastError?: string | undefined;
  /**
   * The last failure is a refusal that retrying cannot cure (HTTP 403, 404, 410, a bad archive, a
   * failed verification): it is retried all the same, with the same capped backoff, since the
   * source may be fixed behind the same URL, but readiness and the log say so.
   */
  refused?: boolean | undefined;
  /** When the next attempt after a failure is due. */
  nextRetryAt?: Date | undefined;
  /** The last successful load served the pinned cache without fetching. */
  fromCache?: boolean | undefined;
}

export interface SiteLoaderOptions {
  stateDir: string;
  settings: SettingsStore;
  log: Logger;
  /** Called with every newly active site; the caller swaps its in-memory reference in one assignment. */
  onActivate: (record: ActiveRecord) => void;
  /** Test hook: extra CA for https bundle URLs (production uses NODE_EXTRA_CA_CERTS). */
  ca?: string | Buffer | undefined;
  cwd?: string;
}

/**
 * Runs the loader: one load at a time (a reload during a load runs once more afterwards with the
 * newest config), activation only after full verification, retries with capped exponential
 * backoff (staticExport.retry) after a failure while the previous site, if any, stays served, and
 * pruning to `keepVersions`.
 */
export function createSiteLoader(opts: SiteLoaderOptions) {
  let status: LoaderStatus = { phase: 'idle' };
  let active: ActiveRecord | undefined;
  let running: Promise<void> | undefined;
  let queued: StaticExportConfig | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let failures = 0;
  let controller = new AbortController();
  let stopped = false;

  const activate = (record: ActiveRecord, keep: number) => {
    writeActive(opts.stateDir, record, opts.settings);
    active = record;
    opts.onActivate(record);
    const removed = pruneVersions(opts.stateDir, keep, record.mounted ? undefined : record.dir, opts.log);
    if (removed.length) opts.log.info({ removed }, 'pruned old site versions');
  };

  const toRecord = (site: LoadedSite, rollback?: ActiveRecord['rollback']): ActiveRecord => ({
    version: site.version,
    dir: site.dir,
    projectId: site.projectId,
    mounted: site.mounted,
    source: site.source,
    activatedAt: new Date().toISOString(),
    ...(rollback ? { rollback } : {}),
  });

  /** The config's source is the one a `sites rollback` overrode: keep the rolled-back site. */
  const rolledBackFor = (cfg: StaticExportConfig, record: ActiveRecord | undefined) =>
    record?.rollback && record.rollback.bundleUrl === (cfg.bundleUrl ?? null) && record.rollback.version === (cfg.version ?? null);

  async function runOnce(cfg: StaticExportConfig): Promise<void> {
    if (!cfg.enabled || !cfg.bundleUrl) return;
    const onDisk = readActive(opts.stateDir, opts.settings);
    if (rolledBackFor(cfg, onDisk) && onDisk && fs.existsSync(onDisk.dir)) {
      if (active?.dir !== onDisk.dir || active.version !== onDisk.version) {
        active = onDisk;
        opts.onActivate(onDisk);
      }
      status = { phase: 'idle' };
      opts.log.info({ version: onDisk.version }, 'serving the rolled-back site; change staticExport to roll forward');
      return;
    }
    status = { ...status, phase: 'loading' };
    const started = Date.now();
    try {
      const site = await loadBundle({
        stateDir: opts.stateDir,
        bundleUrl: cfg.bundleUrl,
        version: cfg.version,
        limits: { maxEntries: cfg.maxEntries, maxUncompressedBytes: cfg.maxUncompressedBytes },
        verifyTimeoutMs: cfg.verifyTimeoutMs,
        fetch: { ...cfg.fetch, ca: opts.ca },
        signal: controller.signal,
        log: opts.log,
        ...(opts.cwd ? { cwd: opts.cwd } : {}),
      });
      if (stopped) return;
      activate(toRecord(site), cfg.keepVersions);
      failures = 0;
      status = { phase: 'idle', fromCache: site.fromCache };
      opts.log.info({ version: site.version, dir: site.dir, fromCache: site.fromCache, mounted: site.mounted, ms: Date.now() - started }, 'site activated');
    } catch (err) {
      if (stopped) return;
      failures += 1;
      const delay = Math.min(cfg.retry.maxMs, cfg.retry.minMs * 2 ** (failures - 1));
      const reason = (err as Error).message;
      const refused = isRefusal(err);
      status = { phase: 'idle', lastError: reason, refused, nextRetryAt: new Date(Date.now() + delay) };
      const fields = { err: reason, refused, code: (err as BundleError).code, attempt: failures, retryInMs: delay, serving: active?.version ?? null };
      const what = refused ? `site load refused (${REFUSED_HINT})` : 'site load failed';
      const served = active ? `version ${active.version} stays served` : 'no site is served (readers get 503) until a load succeeds';
      opts.log.error(fields, `${what}; ${served}`);
      clearTimeout(retryTimer);
      retryTimer = setTimeout(() => void run(cfg), delay);
      retryTimer.unref();
    }
  }

  /** Load with this config now (or right after the load in progress). */
  function run(cfg: StaticExportConfig): Promise<void> {
    if (stopped) return Promise.resolve();
    clearTimeout(retryTimer);
    retryTimer = undefined;
    if (running) {
      queued = cfg;
      return running;
    }
    running = (async () => {
      try {
        let next: StaticExportConfig | undefined = cfg;
        while (next && !stopped) {
          queued = undefined;
          await runOnce(next);
          next = queued;
        }
      } finally {
        // Cleared in the same step the loop ends: a run() arriving later starts a new loop
        // instead of queueing behind one that has already finished.
        running = undefined;
      }
    })();
    return running;
  }

  return {
    /** Serve what was active before the restart, at once, while the loader runs. */
    restore(): ActiveRecord | undefined {
      const record = readActive(opts.stateDir, opts.settings);
      if (record && fs.existsSync(record.dir)) {
        active = record;
        opts.onActivate(record);
      }
      return active;
    },
    run,
    /** Start-up only: remove what a crash left in sites/ (no load can be running yet). */
    removeStaleTemps: () => removeStaleTemps(opts.stateDir, opts.log),
    /** Activate an already verified site (the embedded example export goes through loadBundle too). */
    activateLoaded(site: LoadedSite, keep: number) {
      activate(toRecord(site), keep);
      opts.log.info({ version: site.version, dir: site.dir, source: site.source }, 'site activated');
    },
    setPhase(phase: LoaderStatus['phase'], lastError?: string) {
      status = { phase, ...(lastError ? { lastError } : {}) };
    },
    get status(): LoaderStatus {
      return status;
    },
    get active(): ActiveRecord | undefined {
      return active;
    },
    /** Resolves when no load is running (tests, benchmark). */
    async idle(): Promise<void> {
      while (running) await running;
    },
    get signal(): AbortSignal {
      return controller.signal;
    },
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(retryTimer);
      controller.abort();
      await running?.catch(() => undefined);
      controller = new AbortController();
    },
  };
}

export type SiteLoader = ReturnType<typeof createSiteLoader>;
