import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { ExportProgress } from '../../renderer/index.js';
import type { ExportFailure, ExportOutcome, ExportRequest, ExportTask, ExportTaskResult } from './export-protocol.js';

/** The export failed; `exportError` when pages or the config could not be rendered (file:line). */
export class ExportRunError extends Error {
  readonly exportError: boolean;
  readonly failures: number;
  readonly aborted: boolean;
  constructor(e: ExportFailure) {
    super(e.message);
    this.name = e.exportError ? 'ExportError' : 'ExportRunError';
    if (e.stack) this.stack = e.stack;
    this.exportError = e.exportError;
    this.failures = e.failures;
    this.aborted = e.aborted;
  }
}

export interface ExportRunner {
  run(request: ExportRequest, opts: { onProgress: (p: ExportProgress) => void; signal: AbortSignal }): Promise<ExportOutcome>;
  /** The entries of `paths` that match no page of the site (planned in the export thread). */
  unknownPaths(sourceDir: string, paths: string[]): Promise<string[]>;
  /** Close the render pool and end the thread (abort running exports first). */
  close(): Promise<void>;
}

/** Compiled: `export-worker.js`. From source (tsx, vitest): the `.ts` file, with the tsx loader. */
function workerEntry(): { filename: string; execArgv?: string[] } {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const js = path.join(here, 'export-worker.js');
  if (fs.existsSync(js)) return { filename: js };
  const ts = path.join(here, 'export-worker.ts');
  const inherited =
    process.execArgv.some((a, i, all) => (a === '--import' || a === '--loader') && /tsx/.test(all[i + 1] ?? '')) || process.execArgv.some((a) => /^--(import|loader)=.*tsx/.test(a));
  return inherited ? { filename: ts } : { filename: ts, execArgv: ['--import', 'tsx'] };
}

/**
 * Exports run in one worker thread of their own, which owns the render pool. The main thread keeps
 * only HTTP and SQLite: planning, indexing, packing and the garbage of a large site (hundreds of
 * MB) never pause the event loop that answers the pollers. The thread is a one-thread piscina
 * (it loads TypeScript from source like the render pool does, and respawns after a crash); exports
 * share it, up to 16 at a time. Started with the first export.
 */
export function createExportThread(opts: { threads: number }): ExportRunner {
  let piscina: Piscina<ExportTask, ExportTaskResult> | undefined;
  const thread = () => {
    if (piscina) return piscina;
    const entry = workerEntry();
    piscina = new Piscina<ExportTask, ExportTaskResult>({
      filename: entry.filename,
      ...(entry.execArgv ? { execArgv: entry.execArgv } : {}),
      minThreads: 1,
      maxThreads: 1,
      concurrentTasksPerWorker: 16,
      // The thread keeps the render pool warm between exports; it is closed on shutdown.
      idleTimeout: Number.MAX_SAFE_INTEGER,
    });
    return piscina;
  };

  return {
    async run(request, { onProgress, signal }) {
      signal.throwIfAborted();
      const { port1, port2 } = new MessageChannel();
      port1.on('message', (m: { type: 'progress'; progress: ExportProgress }) => {
        if (m.type === 'progress') onProgress(m.progress);
      });
      const onAbort = () => port1.postMessage({ type: 'abort', reason: String((signal.reason as Error | undefined)?.message ?? 'aborted') });
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        const result = await thread().run({ type: 'run', request, threads: opts.threads, port: port2 }, { transferList: [port2] });
        if (!result.ok) throw new ExportRunError(result.error);
        return result.outcome!;
      } catch (err) {
        if (err instanceof ExportRunError) throw err;
        // The thread itself died (out of memory, say): piscina rejects the task and respawns it.
        throw new ExportRunError({ message: `the export thread failed: ${err instanceof Error ? err.message : String(err)}`, stack: undefined, exportError: false, failures: 0, aborted: signal.aborted });
      } finally {
        signal.removeEventListener('abort', onAbort);
        port1.close();
      }
    },
    async unknownPaths(sourceDir, paths) {
      const result = await thread().run({ type: 'checkPaths', sourceDir, paths });
      return result.ok ? (result.unknownPaths ?? []) : [];
    },
    async close() {
      const p = piscina;
      piscina = undefined;
      if (!p) return;
      await p.run({ type: 'close' }).catch(() => undefined);
      await p.close();
    },
  };
}
