import fs from 'node:fs';
import type { ExportJob } from '../../data/stores/export-jobs.js';
import type { AppContext } from '../context.js';
import { siteCsp } from '../site/site-csp.js';
import { createExportThread, ExportRunError, type ExportRunner } from './export-thread.js';
import type { ExportFiles } from './files.js';
import { createProgressTracker, throttle } from './progress.js';
import { defaultVersion } from './version.js';

/** Pollers read progress from SQLite; one write per job per this interval is plenty. */
const PROGRESS_WRITE_MS = 250;

/**
 * A job found `running` at start-up was cut off by a crash (a graceful stop puts it back in the
 * queue itself). It is run again from the beginning, unless it has been cut off this many times:
 * then the export itself is the likely cause (out of memory, say) and the job fails instead of
 * taking the appliance down in a loop.
 */
export const MAX_ATTEMPTS = 3;

export interface ExportQueue {
  /** Recover interrupted jobs and start taking work. */
  start(): void;
  /** A job was queued: run it when a slot is free. */
  poke(): void;
  setConcurrency(n: number): void;
  /** Entries of `paths` that match no page of the site, planned off the main thread. */
  unknownPaths(sourceDir: string, paths: string[]): Promise<string[]>;
  /** Stop taking jobs, abort running ones (they go back to the queue) and close the pool. */
  stop(): Promise<void>;
  readonly running: number;
}

/**
 * The durable queue of export jobs. The table is the queue; this runs up to `concurrency` jobs at
 * a time in the export thread (export-thread.ts), which holds the one render pool they share.
 */
export function createExportQueue(ctx: AppContext, files: ExportFiles, deps: { runner?: ExportRunner } = {}): ExportQueue {
  const store = ctx.stores.exportJobs;
  const log = ctx.log.child({ feature: 'static-export' });
  let concurrency = ctx.config.staticExport.concurrency;
  let accepting = false;
  let stopping = false;
  // One export thread and one render pool for every job, started with the first job. A runner
  // passed in (deps.runner) belongs to the caller: stop() aborts this queue's jobs but leaves it up.
  let runner: ExportRunner | undefined;
  const exportThread = (): ExportRunner => deps.runner ?? (runner ??= createExportThread({ threads: ctx.config.renderer.threads }));
  const active = new Map<string, { abort: AbortController; done: Promise<void> }>();

  function pump(): void {
    while (accepting && active.size < concurrency) {
      const job = store.claimNext();
      if (!job) return;
      const abort = new AbortController();
      const done = run(job, abort.signal).finally(() => {
        active.delete(job.id);
        pump();
      });
      active.set(job.id, { abort, done });
    }
  }

  async function run(job: ExportJob, signal: AbortSignal): Promise<void> {
    const started = performance.now();
    const progress = createProgressTracker();
    const writer = throttle<{ progress: number; pageCount: number }>(PROGRESS_WRITE_MS, (p) => store.updateProgress(job.id, p.progress, p.pageCount));
    try {
      // A re-run starts from nothing: whatever an interrupted run left is deleted first.
      files.remove(job.id);
      fs.mkdirSync(files.dir(job.id), { recursive: true });
      const project = ctx.stores.projects.get(job.projectId);
      if (!project) throw new Error(`project ${job.projectId} no longer exists`);
      if (project.sourceDir === null) throw new Error(`project ${job.projectId} no longer has a sourceDir (it is published from git): set its sourceDir to export it`);
      const sourceDir = project.sourceDir;
      const version = job.requestedVersion ?? (await defaultVersion(sourceDir, job.id));
      store.setVersion(job.id, version);
      log.info({ jobId: job.id, domain: job.domain, version, attempt: job.attempts }, 'export started');
      const result = await exportThread().run(
        {
          sourceDir,
          outZip: files.partial(job.id),
          outTarGz: files.tarGzPartial(job.id),
          outAllZip: files.of(job.id, 'zip', 'all'),
          outAllTarGz: files.of(job.id, 'tar.gz', 'all'),
          jobId: job.id,
          projectId: project.id,
          domain: job.domain,
          version,
          createdAt: new Date(job.createdAt),
          ...(job.paths ? { paths: job.paths } : {}),
          ...(job.keepGoing ? { keepGoing: true } : {}),
          ...(ctx.config.projects.find((p) => p.id === project.id)?.componentScripts === false ? { componentScripts: false } : {}),
          ...(ctx.config.projects.find((p) => p.id === project.id)?.auth ? { readerAccess: true } : {}),
          contentSecurityPolicy: siteCsp(ctx.config, project.id),
        },
        { signal, onProgress: (p) => writer.push(progress.update(p)) },
      );
      writer.cancel();
      // The zip last: its presence says the job's files are complete (the bundle operation checks it).
      fs.renameSync(files.tarGzPartial(job.id), files.tarGz(job.id));
      fs.renameSync(files.partial(job.id), files.bundle(job.id));
      const sizeBytes = result.sizeBytes ?? fs.statSync(files.bundle(job.id)).size;
      store.complete(job.id, { pageCount: result.pageCount, sizeBytes, warnings: result.warnings, ...(job.keepGoing ? { failures: result.failures } : {}) });
      log.info({ jobId: job.id, pageCount: result.pageCount, sizeBytes, tarGzBytes: result.tarGzBytes, failures: result.failures.length, ms: Math.round(performance.now() - started), timings: result.timings, warnings: result.warnings.warningCount }, 'export completed');
    } catch (err) {
      writer.cancel();
      files.remove(job.id);
      if (stopping && signal.aborted) {
        // Stopped on purpose: not the export's fault, so the attempt is not counted.
        store.requeue(job.id, true);
        log.warn({ jobId: job.id }, 'export interrupted by shutdown; queued to run again from the beginning on the next start');
        return;
      }
      const renderFailure = err instanceof ExportRunError && err.exportError;
      const message = renderFailure ? err.message : `Export failed: ${err instanceof Error ? err.message : String(err)}`;
      store.fail(job.id, message);
      if (renderFailure) log.warn({ jobId: job.id, failures: err.failures, error: message }, 'export failed');
      else log.error({ jobId: job.id, err }, 'export failed unexpectedly');
    }
  }

  /** Jobs a dead process left `running`: run them again from the start, or give up on them. */
  function recover(): void {
    for (const job of store.listByStatus('running')) {
      files.remove(job.id);
      if (job.attempts >= MAX_ATTEMPTS) {
        store.fail(job.id, `Export was interrupted ${job.attempts} times while running (the appliance stopped or crashed); not retried again. Start a new export.`);
        log.error({ jobId: job.id, attempts: job.attempts }, 'interrupted export failed: too many attempts');
      } else {
        store.requeue(job.id, false);
        log.warn({ jobId: job.id, attempts: job.attempts }, 'export was interrupted by a stop of the process; queued to run again from the beginning');
      }
    }
  }

  return {
    start() {
      if (accepting) return;
      stopping = false;
      recover();
      accepting = true;
      pump();
    },
    poke: pump,
    unknownPaths: (sourceDir, paths) => exportThread().unknownPaths(sourceDir, paths),
    setConcurrency(n) {
      concurrency = n;
      pump();
    },
    async stop() {
      accepting = false;
      stopping = true;
      for (const { abort } of active.values()) abort.abort(new Error('the appliance is shutting down'));
      await Promise.allSettled([...active.values()].map((a) => a.done));
      const r = runner;
      runner = undefined;
      await r?.close();
    },
    get running() {
      return active.size;
    },
  };
}
