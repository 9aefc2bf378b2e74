import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { startSourceWorker } from '../core/source-worker.js';
import type { Logger } from '../logger.js';
import type { RetrievalReply, RetrievalRequest, RetrievalResults, RetrievalWorkerData } from './protocol.js';

/** Requests waiting on the retrieval thread at once; past it callers get RetrievalBusyError. */
export const MAX_PENDING = 256;
/** A query (not a build) that takes longer than this is given up on. */
const QUERY_TIMEOUT_MS = 15_000;
/** Building a big bundle's index: 25,000 pages take seconds; this bounds a wedged build. */
const OPEN_TIMEOUT_MS = 10 * 60_000;
/** How long the thread is given to stop its builds and close its indexes at shutdown. */
const SHUTDOWN_TIMEOUT_MS = 5_000;
/** The thread's heap: it streams the section index and keeps no corpus in JavaScript. */
const HEAP_MB = 256;

export class RetrievalBusyError extends Error {}

export interface RetrievalHost {
  request<K extends RetrievalRequest['op']>(req: Extract<RetrievalRequest, { op: K }>): Promise<RetrievalResults[K]>;
  /** Requests sent and not answered yet. */
  pending(): number;
  close(): Promise<void>;
}

/**
 * The main thread's side of the retrieval thread (app/retrieval/worker.ts): started on the first
 * request, restarted on the next one if it dies (every request waiting on a dead thread fails
 * with its exit), and bounded in how much it lets wait.
 */
export function createRetrievalHost(opts: { stateDir: string; log: Logger }): RetrievalHost {
  const data: RetrievalWorkerData = { cacheDir: path.join(opts.stateDir, 'cache', 'retrieval') };
  let worker: Worker | undefined;
  let nextId = 1;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();

  const failAll = (err: Error) => {
    for (const [id, w] of waiting) {
      clearTimeout(w.timer);
      waiting.delete(id);
      w.reject(err);
    }
  };
  const thread = (): Worker => {
    if (worker) return worker;
    const w = startSourceWorker(import.meta.url, 'worker', { workerData: data, resourceLimits: { maxOldGenerationSizeMb: HEAP_MB }, stdout: false, stderr: false });
    // The thread must not keep the process alive on its own (shutdown, one-shot CLI commands).
    w.unref();
    w.on('message', (reply: RetrievalReply) => {
      const pending = waiting.get(reply.id);
      if (!pending) return;
      waiting.delete(reply.id);
      clearTimeout(pending.timer);
      if (reply.ok) pending.resolve(reply.value);
      else pending.reject(new Error(reply.error));
    });
    w.on('error', (err) => opts.log.error({ err: err.message }, 'retrieval thread failed'));
    w.on('exit', (code) => {
      if (worker === w) worker = undefined;
      failAll(new Error(`the retrieval thread exited (code ${code})`));
    });
    worker = w;
    return w;
  };

  return {
    request(req) {
      if (waiting.size >= MAX_PENDING) return Promise.reject(new RetrievalBusyError(`${MAX_PENDING} retrieval requests are already waiting`));
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const ms = req.op === 'open' ? OPEN_TIMEOUT_MS : QUERY_TIMEOUT_MS;
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error(`retrieval ${req.op} took longer than ${ms / 1000} s`));
        }, ms);
        timer.unref();
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
        thread().postMessage({ id, req });
      });
    },
    pending: () => waiting.size,
    async close() {
      const w = worker;
      if (!w) return;
      // The thread stops its index builds (child processes, which terminating it would orphan)
      // before it goes; a thread too wedged to answer is terminated anyway.
      const id = nextId++;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, SHUTDOWN_TIMEOUT_MS);
        timer.unref();
        waiting.set(id, { resolve: () => (clearTimeout(timer), resolve()), reject: () => (clearTimeout(timer), resolve()), timer });
        w.postMessage({ id, req: { op: 'shutdown' } });
      });
      worker = undefined;
      failAll(new Error('the appliance is stopping'));
      await w.terminate();
    },
  };
}
