import type { IngestEvent } from './events.js';
import type { SessionTracker } from './sessions.js';
import type { SearchEventStore } from '../../data/stores/search-events.js';
import type { Logger } from '../logger.js';

export interface WriteBufferOptions {
  store: SearchEventStore;
  sessions: SessionTracker;
  log: Logger;
  /** Flush at least this often while events wait. */
  intervalMs?: number;
  /** Flush at once when this many events wait. */
  maxPending?: number;
  /** After each flush: rows written, and events lost to a failed write. */
  onWritten?: (stored: number, dropped: number) => void;
}

/**
 * Beacons are answered at once and written in batches: one transaction per flush instead of
 * one per request is what lets ingest keep up with a busy site (docs/analytics.md). A flush
 * that fails keeps nothing half-written (one transaction) and is logged; the events are lost
 * rather than retried forever against a broken disk.
 */
export function createWriteBuffer(opts: WriteBufferOptions) {
  const intervalMs = opts.intervalMs ?? 250;
  const maxPending = opts.maxPending ?? 5_000;
  let pending: IngestEvent[] = [];
  let timer: NodeJS.Timeout | null = null;
  let written = 0;

  function flush(): number {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    if (pending.length === 0) return 0;
    const batch = pending;
    pending = [];
    try {
      const stored = opts.sessions.process(batch);
      opts.store.writeBatch(stored);
      written += stored.length;
      opts.onWritten?.(stored.length, 0);
      return stored.length;
    } catch (err) {
      opts.log.error({ err, events: batch.length }, 'analytics: writing a batch of events failed; the batch is dropped');
      opts.onWritten?.(0, batch.length);
      return 0;
    }
  }

  return {
    push(events: readonly IngestEvent[]): void {
      for (const e of events) pending.push(e);
      if (pending.length >= maxPending) flush();
      else if (!timer) {
        timer = setTimeout(flush, intervalMs);
        timer.unref();
      }
    },
    /** Write everything waiting now (reports call it so that they see every accepted event). */
    flush,
    pendingCount: () => pending.length,
    writtenCount: () => written,
  };
}

export type WriteBuffer = ReturnType<typeof createWriteBuffer>;
