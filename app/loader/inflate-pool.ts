import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startSourceWorker } from '../core/source-worker.js';
import { BundleError } from './errors.js';
import type { InflateBatch, InflateEntry, InflateReply } from './inflate-types.js';

/** Entries per message: enough to make the round trip negligible, few enough to spread the work. */
const BATCH_ENTRIES = 48;
const BATCH_BYTES = 4 * 1024 * 1024;
/** Batches queued per thread, so a thread never waits for the main thread between two. */
const IN_FLIGHT_PER_THREAD = 2;

export interface InflatedFile {
  name: string;
  size: number;
  sha256: string;
}

/**
 * A few worker threads that inflate, hash and write zip entries (inflate-worker.ts) while the main
 * thread keeps serving: the cold start of a large bundle is inflate + sha256 + file writes, which
 * the cores share this way. Entries are added in archive order and sent in batches; `finish()`
 * resolves once every entry is written, or rejects with the first failure (naming the entry),
 * after which nothing more is sent. Always `close()` it.
 */
export class InflatePool {
  private readonly workers: Worker[];
  private readonly busy: number[];
  private readonly pending = new Map<number, { worker: number }>();
  private batch: InflateEntry[] = [];
  private batchBytes = 0;
  private nextId = 0;
  private failure: BundleError | undefined;
  private drained: (() => void) | undefined;
  private waitingForRoom: (() => void) | undefined;

  constructor(
    archivePath: string,
    private readonly archive: string,
    private readonly onFile: (file: InflatedFile) => void,
    threads = defaultThreads(),
  ) {
    this.workers = Array.from({ length: threads }, () => startWorker(archivePath));
    this.busy = this.workers.map(() => 0);
    this.workers.forEach((w, i) => {
      w.on('message', (reply: InflateReply) => this.onReply(i, reply));
      w.on('error', (err) => this.fail(new BundleError(`${this.archive}: extraction thread failed: ${err.message}`, { cause: err })));
      w.on('exit', (code) => {
        if (this.pending.size > 0) this.fail(new BundleError(`${this.archive}: extraction thread exited (code ${code})`));
      });
    });
  }

  /** Queue one entry; waits while every thread has its batches queued (back-pressure). */
  async add(entry: InflateEntry): Promise<void> {
    if (this.failure) throw this.failure;
    this.batch.push(entry);
    this.batchBytes += entry.size;
    if (this.batch.length >= BATCH_ENTRIES || this.batchBytes >= BATCH_BYTES) await this.flush();
  }

  /** Every entry written (resolves) or the first failure (rejects). */
  async finish(): Promise<void> {
    await this.flush();
    if (this.pending.size > 0 && !this.failure) await new Promise<void>((r) => (this.drained = r));
    if (this.failure) throw this.failure;
  }

  /** Fail now (the load's deadline or stop): waiters in add() and finish() reject with `err`. */
  abort(err: BundleError): void {
    this.fail(err);
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private async flush(): Promise<void> {
    if (this.batch.length === 0) return;
    for (;;) {
      if (this.failure) throw this.failure;
      const free = this.busy.indexOf(Math.min(...this.busy));
      if (this.busy[free]! < IN_FLIGHT_PER_THREAD) {
        const msg: InflateBatch = { id: this.nextId++, entries: this.batch };
        this.batch = [];
        this.batchBytes = 0;
        this.busy[free]! += 1;
        this.pending.set(msg.id, { worker: free });
        this.workers[free]!.postMessage(msg);
        return;
      }
      await new Promise<void>((r) => (this.waitingForRoom = r));
    }
  }

  private onReply(worker: number, reply: InflateReply): void {
    this.busy[worker]! -= 1;
    this.pending.delete(reply.id);
    for (const f of reply.files) this.onFile(f);
    if (reply.error) this.fail(new BundleError(`${this.archive}: entry "${reply.error.name}" ${reply.error.message}`));
    this.wake();
  }

  private fail(err: BundleError): void {
    this.failure ??= err;
    this.pending.clear();
    this.wake();
  }

  private wake(): void {
    const room = this.waitingForRoom;
    this.waitingForRoom = undefined;
    room?.();
    if (this.pending.size === 0 || this.failure) {
      const done = this.drained;
      this.drained = undefined;
      done?.();
    }
  }
}

/** The cores there are, but at most 4 (past that the disk is the limit). */
function defaultThreads(): number {
  return Math.max(1, Math.min(4, os.availableParallelism()));
}

/** An inflating thread (`inflate-worker`, compiled or from source: app/core/source-worker.ts). */
function startWorker(archive: string): Worker {
  return startSourceWorker(import.meta.url, 'inflate-worker', { workerData: { archive } });
}
