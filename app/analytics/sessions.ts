import type { IngestEvent } from './events.js';
import type { StoredSearchEvent } from '../../data/stores/search-events.js';

/** The counting rules of docs/analytics.md, "What counts as a search" and "Click-through rate". */
export const SESSION_RULES = {
  /** The same (session, normalised query) searched again within this is the same search. */
  dedupMs: 30_000,
  /** A click counts for the latest search of its session and term at most this much earlier. */
  clickWindowMs: 30 * 60_000,
  /** ...or at most this much later: the beacons of one action may arrive in either order. */
  clickSkewMs: 5_000,
  /** Sessions remembered; the oldest are forgotten first. */
  maxTracked: 200_000,
} as const;

interface Tracked {
  /** Time of the last counted search, or null when only an unmatched click is known. */
  searchAt: number | null;
  clicked: boolean;
  /** A click of this batch seen before its search (beacons racing); may still be attributed. */
  orphan: StoredSearchEvent | null;
}

/**
 * Turns validated events into stored ones: drops repeated searches (search-as-you-type and
 * re-sent beacons) and decides which clicks make a search "clicked". Session ids live only
 * here, in memory: they are never written to the database. A restart forgets the open
 * sessions, which at worst counts one repeated search twice or misses one click's attribution.
 */
export function createSessionTracker(rules: { readonly [K in keyof typeof SESSION_RULES]: number } = SESSION_RULES) {
  const tracked = new Map<string, Tracked>();

  const remember = (key: string, t: Tracked) => {
    tracked.delete(key); // re-insert: Map order is then least recently used first
    tracked.set(key, t);
    if (tracked.size > rules.maxTracked) {
      // Evict the oldest tenth in one pass. Deleting one entry per insert from the front of a
      // V8 Map makes every `keys().next()` walk the deleted slots: measured 15 µs per event.
      let n = tracked.size - Math.floor(rules.maxTracked * 0.9);
      for (const k of tracked.keys()) {
        tracked.delete(k);
        if (--n <= 0) break;
      }
    }
  };

  /**
   * Events of one batch in any order; returns those to store, in time order (searches first on
   * equal times, so a click never precedes its search). With a `journal`, the state each session
   * had before the batch is kept in it, so that a failed write can be forgotten (`processUndoable`).
   */
  function processBatch(events: readonly IngestEvent[], journal?: Map<string, Tracked | null>): StoredSearchEvent[] {
    // An import (an export of a live system) is already in this order: check before copying.
    let inOrder = true;
    for (let i = 1; i < events.length && inOrder; i++) {
      const a = events[i - 1]!;
      const b = events[i]!;
      inOrder = a.atMs < b.atMs || (a.atMs === b.atMs && a.kind <= b.kind);
    }
    const sorted = inOrder ? events : [...events].sort((a, b) => a.atMs - b.atMs || a.kind - b.kind);
    const out: StoredSearchEvent[] = [];
    const orphaned: Tracked[] = [];
    for (const e of sorted) {
      const key = `${e.projectId}\u0000${e.sessionId}\u0000${e.norm}`;
      const t = tracked.get(key);
      if (journal && !journal.has(key)) journal.set(key, t ? { ...t } : null);
      if (e.kind === 0) {
        if (t && t.searchAt !== null && e.atMs - t.searchAt < rules.dedupMs && e.atMs >= t.searchAt) continue;
        const next: Tracked = { searchAt: e.atMs, clicked: false, orphan: null };
        if (t?.orphan && t.orphan.atMs >= e.atMs - rules.clickSkewMs) {
          t.orphan.countsCtr = 1;
          t.orphan.searchAtMs = e.atMs;
          next.clicked = true;
        }
        remember(key, next);
        out.push({ projectId: e.projectId, kind: 0, norm: e.norm, atMs: e.atMs, resultCount: e.resultCount, path: null, countsCtr: 0, searchAtMs: null });
      } else {
        const click: StoredSearchEvent = { projectId: e.projectId, kind: 1, norm: e.norm, atMs: e.atMs, resultCount: null, path: e.path, countsCtr: 0, searchAtMs: null };
        if (t && t.searchAt !== null && e.atMs - t.searchAt <= rules.clickWindowMs) {
          if (!t.clicked) {
            click.countsCtr = 1;
            click.searchAtMs = t.searchAt;
            t.clicked = true;
          }
        } else {
          const next: Tracked = { searchAt: t?.searchAt ?? null, clicked: t?.clicked ?? false, orphan: click };
          remember(key, next);
          orphaned.push(next);
        }
        out.push(click);
      }
    }
    // Orphans may only be completed within the batch that holds them (then they are written).
    for (const t of orphaned) t.orphan = null;
    return out;
  }

  return {
    process: (events: readonly IngestEvent[]): StoredSearchEvent[] => processBatch(events),
    /**
     * As `process`, for a batch whose write may fail: `forget()` puts every session it touched back
     * as it was, so the same events sent again count as they would have the first time.
     */
    processUndoable(events: readonly IngestEvent[]): { stored: StoredSearchEvent[]; forget(): void } {
      const journal = new Map<string, Tracked | null>();
      const stored = processBatch(events, journal);
      return {
        stored,
        forget() {
          for (const [key, before] of journal) {
            if (before) tracked.set(key, before);
            else tracked.delete(key);
          }
        },
      };
    },
    /** Sessions currently remembered (metrics, tests). */
    size: () => tracked.size,
  };
}

export type SessionTracker = ReturnType<typeof createSessionTracker>;
