import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { TailwindInput } from '../tailwind/index.js';
import type { RenderBatchResult, RenderBatchTask } from './batch.js';

export interface RenderPool {
  readonly threads: number;
  /** Render one batch; a crashed worker or an abort rejects only this batch. */
  run(task: RenderBatchTask, options?: { signal?: AbortSignal }): Promise<RenderBatchResult>;
  /**
   * Compile the site's Tailwind stylesheet on a worker, beside the page batches (a pool without
   * it compiles on the calling thread).
   */
  compileTailwind?(input: TailwindInput, options?: { signal?: AbortSignal }): Promise<string>;
  /** Wait for running batches, then stop the workers. */
  close(): Promise<void>;
}

/**
 * The worker runs from compiled `dist/` as `worker.js`; from source (tsx, vitest) only
 * `worker.ts` exists and the worker thread needs the tsx loader. Node started with
 * `--import tsx` passes it on to workers by itself; anything else (vitest) gets it explicitly.
 */
function workerEntry(): { filename: string; execArgv?: string[] } {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const js = path.join(here, 'worker.js');
  if (fs.existsSync(js)) return { filename: js };
  const ts = path.join(here, 'worker.ts');
  const inherited = process.execArgv.some((a, i, all) => (a === '--import' || a === '--loader') && /tsx/.test(all[i + 1] ?? '')) ||
    process.execArgv.some((a) => /^--(import|loader)=.*tsx/.test(a));
  return inherited ? { filename: ts } : { filename: ts, execArgv: ['--import', 'tsx'] };
}

/**
 * A pool of render workers sized to the machine. Created once and shared by every export (the
 * export-job queue and the CLI both take one); the workers stay up between exports.
 */
export interface RenderPoolOptions {
  /** Worker threads; default `os.availableParallelism()`. */
  threads?: number;
  /**
   * Heap cap per worker. A page that blows up (a runaway snippet expansion, say) then ends its own
   * worker with ERR_WORKER_OUT_OF_MEMORY, failing one batch, instead of exhausting the process.
   */
  maxWorkerHeapMb?: number;
  /**
   * Young generation per worker (V8's `maxYoungGenerationSizeMb`; default WORKER_YOUNG_GENERATION_MB
   * for up to YOUNG_GENERATION_MAX_THREADS threads, else V8's own choice, which 0 also asks for).
   * A page's garbage is short-lived, but a batch's output lives until the batch is sent.
   */
  youngGenerationMb?: number;
  /** Pool-level errors that belong to no task (default: a process warning). */
  onError?: (err: Error) => void;
}

/**
 * 96 MB, a 32 MB semi-space: V8 picks about half that for a 512 MB heap. Measured on the bench's
 * 1,000-operation API site, the two pools alternating in one process (docs/renderer.md, "Young
 * generation"): scavenges every 27 ms of 1–3 ms each fell by about half, and an export took 6–14 %
 * less wall time and CPU; about 60 MB more resident a busy worker. Given to pools of up to
 * YOUNG_GENERATION_MAX_THREADS workers: a pool of one worker per core on a big host (a pod sees
 * the node's cores) keeps V8's choice, so the extra memory stays under about 240 MB.
 */
export const WORKER_YOUNG_GENERATION_MB = 96;
export const YOUNG_GENERATION_MAX_THREADS = 4;

/** The V8 limits each of a pool's `threads` render workers starts with (a young generation of 0 leaves it to V8). */
export function workerResourceLimits(options: Pick<RenderPoolOptions, 'maxWorkerHeapMb' | 'youngGenerationMb'>, threads: number): { maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb?: number } {
  const young = options.youngGenerationMb ?? (threads <= YOUNG_GENERATION_MAX_THREADS ? WORKER_YOUNG_GENERATION_MB : 0);
  return { maxOldGenerationSizeMb: options.maxWorkerHeapMb ?? 512, ...(young > 0 ? { maxYoungGenerationSizeMb: young } : {}) };
}

export function createRenderPool(options: RenderPoolOptions = {}): RenderPool {
  const threads = Math.max(1, options.threads ?? os.availableParallelism());
  const entry = workerEntry();
  const piscina = new Piscina<RenderBatchTask, RenderBatchResult>({
    filename: entry.filename,
    ...(entry.execArgv ? { execArgv: entry.execArgv } : {}),
    minThreads: threads,
    maxThreads: threads,
    resourceLimits: workerResourceLimits(options, threads),
    // Long-lived workers keep their warm module caches (marked, highlight.js, templates).
    idleTimeout: 60_000,
    // One batch per worker (piscina's default). Two in flight per worker measured no faster on a
    // quiet machine (10,000 pages: 7.9 s either way), and aborting one export would then terminate
    // a worker holding another export's batch, failing that export too.
  });
  // piscina emits 'error' for problems that belong to no task: a worker's answer arriving after its
  // task was aborted (a race seen in the abort tests), a worker error between tasks, a close
  // timeout. An EventEmitter without a listener throws such an event, which would take the whole
  // appliance down; the task promises already carry every error that matters to an export.
  piscina.on('error', (err: unknown) => {
    const error = err instanceof Error ? err : new Error(String(err));
    if (options.onError) options.onError(error);
    else process.emitWarning(`render pool: ${error.message}`, 'RenderPoolWarning');
  });
  return {
    threads,
    run: (task, runOptions) => piscina.run(task, runOptions?.signal ? { signal: runOptions.signal } : {}),
    compileTailwind: (input, runOptions) =>
      piscina.run(input as unknown as RenderBatchTask, { name: 'compileTailwind', ...(runOptions?.signal ? { signal: runOptions.signal } : {}) }) as unknown as Promise<string>,
    close: () => piscina.close(),
  };
}
