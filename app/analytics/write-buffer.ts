import type { IngestEvent } from './events.js';
import type { SessionTracker } from './sessions.js';
import type { SearchEventStore } from '../../data/stores/search-events.js';
import type { Logger } from '../logger.js';
import { createLogThrottle } from '../http/log-throttle.js';

export interface WriteBufferOptions {
  store: SearchEventStore;
  sessions: SessionTracker;
  log: Logger;
  /** Write at once when this many events wait. */
  maxPending?: number;
  /** After each flush: rows written, and events lost to a failed write. */
  onWritten?: (stored: number, dropped: number) => void;
}

/**
 * A group commit of search and click events (docs/analytics.md, "Ingest"): events wait in memory
 * until the current turn of the event loop ends (or `maxPending` wait), then every request that
 * arrived meanwhile is written in one transaction, and each `push` settles with it: resolved once
 * its events are stored, rejected with the write's error otherwise (the beacon endpoint answers
 * 503 then). Under load a turn holds many requests, so transactions stay large; alone, a beacon
 * waits for one transaction of its own. A failed write keeps nothing (one transaction) and is
 * forgotten by the session rules, so the same events sent again count as the first time.
 */
export function createWriteBuffer(opts: WriteBufferOptions) {
  const maxPending = opts.maxPending ?? 5_000;
  const throttle = createLogThrottle(opts.log);
  let pending: IngestEvent[] = [];
  let waiting: { resolve(): void; reject(err: unknown): void }[] = [];
  let scheduled: NodeJS.Immediate | null = null;
  let written = 0;

  function flush(): number {
    if (scheduled) {
      clearImmediate(scheduled);
      scheduled = null;
    }
    if (pending.length === 0) return 0;
    const batch = pending;
    const settle = waiting;
    pending = [];
    waiting = [];
    const { stored, forget } = opts.sessions.processUndoable(batch);
    try {
      opts.store.writeBatch(stored);
    } catch (err) {
      forget();
      throttle.error('write', { err, events: batch.length }, 'analytics: writing a batch of events failed; its requests were refused');
      opts.onWritten?.(0, batch.length);
      for (const w of settle) w.reject(err);
      return 0;
    }
    written += stored.length;
    opts.onWritten?.(stored.length, 0);
    for (const w of settle) w.resolve();
    return stored.length;
  }

  return {
    /** Queue the events of one request; settles when the transaction holding them has (see above). */
    push(events: readonly IngestEvent[]): Promise<void> {
      for (const e of events) pending.push(e);
      const done = new Promise<void>((resolve, reject) => waiting.push({ resolve, reject }));
      if (pending.length >= maxPending) flush();
      else scheduled ??= setImmediate(flush);
      return done;
    },
    /** Write everything waiting now (reports call it so that they see every accepted event). */
    flush,
    pendingCount: () => pending.length,
    writtenCount: () => written,
  };
}

export type WriteBuffer = ReturnType<typeof createWriteBuffer>;
