import fs from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { startSourceWorker } from '../core/source-worker.js';
import { decodeEvents, type ReceivedStrings } from './import-batch.js';
import { parseNdjson, type ImportProgressCounts, type ImportWorkerData, type ImportWorkerMessage } from './import-parse.js';
import type { SearchEventStore } from '../../data/stores/search-events.js';

export type ImportProgress = ImportProgressCounts;

export interface ImportResult {
  lines: number;
  /** Valid events read (searches repeated within the de-duplication window are then not stored). */
  accepted: number;
  /** Events written to the database. */
  stored: number;
  rejected: number;
  seconds: number;
}

export interface ImportOptions {
  store: SearchEventStore;
  /** Projects events may name; another projectId is a rejected line. */
  knownProjects: Iterable<string>;
  onRejected: (line: number, message: string) => void;
  onProgress?: (p: ImportProgress) => void;
  /** Events per transaction: fewer, larger transactions sum more events into each rollup row. */
  batchSize?: number;
  /** Files of at least this many bytes are parsed on a thread of their own (default 4 MiB). */
  threadFromBytes?: number;
  now?: () => number;
}

/** The parsing thread (`import-worker`, compiled or from source: app/core/source-worker.ts). */
function createParsingThread(data: ImportWorkerData): Worker {
  // A young generation big enough for a batch of parsed events: they die young instead of
  // being copied into the old generation on their way to the writer.
  return startSourceWorker(import.meta.url, 'import-worker', { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: 96 } });
}

/** Below this size a file is parsed in the writer's thread: starting a thread costs more. */
const THREAD_FROM_BYTES = 4 << 20;

/**
 * Imports an NDJSON file of events (DESIGN 3.3's imported form) in large transactions, through
 * the same session rules and rollups as the beacons. For a large file two threads: a worker
 * reads, parses, validates and applies the session rules; this thread only writes to SQLite
 * (one connection, the caller's). A bad line is reported by number and skipped; the import goes on.
 */
export async function importNdjson(file: string, opts: ImportOptions): Promise<ImportResult> {
  const started = performance.now();
  const now = opts.now ?? (() => Date.now());
  const data: ImportWorkerData = { file, nowMs: now(), knownProjects: [...opts.knownProjects], batchSize: opts.batchSize ?? 100_000 };
  const strings: ReceivedStrings = { norms: [], paths: [] };
  let stored = 0;
  let done: Extract<ImportWorkerMessage, { type: 'done' }> | undefined;
  /** Writes one batch; returns the final counts at the end. */
  const receive = (msg: ImportWorkerMessage) => {
    if (msg.type === 'done') {
      done = msg;
      return;
    }
    for (const [line, message] of msg.rejected) opts.onRejected(line, message);
    if (msg.events) {
      const rows = decodeEvents(msg.events, strings);
      opts.store.writeBatch(rows);
      stored += rows.length;
    }
    opts.onProgress?.(msg.progress);
  };

  if (fs.statSync(file).size < (opts.threadFromBytes ?? THREAD_FROM_BYTES)) {
    await parseNdjson(data, async (msg) => receive(msg));
  } else {
    const worker = createParsingThread(data);
    try {
      await new Promise<void>((resolve, reject) => {
        let failed = false;
        worker.on('error', reject);
        worker.on('exit', (code) => reject(new Error(`the import's parsing thread stopped (exit code ${code})`)));
        worker.on('message', (msg: ImportWorkerMessage) => {
          if (failed) return;
          try {
            receive(msg);
            if (done) resolve();
            else worker.postMessage('ack');
          } catch (err) {
            failed = true; // a batch still in flight must not be written after a failed one
            reject(err);
          }
        });
      });
    } finally {
      await worker.terminate();
    }
  }
  return { lines: done!.progress.lines, accepted: done!.progress.accepted, stored, rejected: done!.rejectedTotal, seconds: (performance.now() - started) / 1000 };
}
