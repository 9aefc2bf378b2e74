import type { Db } from '../db.js';

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window frees a request (when the oldest counted hit leaves it). */
  resetSeconds: number;
}

/**
 * Sliding-window limits persisted in SQLite, so a restart does not hand out a fresh quota.
 * A request is counted only when allowed; rejected requests don't extend the wait.
 */
export function createRateLimitStore(db: Db, now: () => Date) {
  const prune = db.prepare('DELETE FROM rate_limit_hits WHERE bucket = ? AND at_ms <= ?');
  const stats = db.prepare<[string], { n: number; oldest: number | null }>(
    'SELECT count(*) AS n, min(at_ms) AS oldest FROM rate_limit_hits WHERE bucket = ?',
  );
  const insert = db.prepare('INSERT INTO rate_limit_hits (bucket, at_ms) VALUES (?, ?)');
  const pruneAll = db.prepare('DELETE FROM rate_limit_hits WHERE at_ms <= ?');

  const hit = db.transaction((bucket: string, limit: number, windowMs: number): RateLimitResult => {
    const t = now().getTime();
    prune.run(bucket, t - windowMs);
    const { n, oldest } = stats.get(bucket)!;
    if (n >= limit) {
      const resetMs = (oldest ?? t) + windowMs - t;
      return { allowed: false, limit, remaining: 0, resetSeconds: Math.max(1, Math.ceil(resetMs / 1000)) };
    }
    insert.run(bucket, t);
    const first = oldest ?? t;
    return { allowed: true, limit, remaining: limit - n - 1, resetSeconds: Math.max(1, Math.ceil((first + windowMs - t) / 1000)) };
  });

  return {
    hit(bucket: string, limit: number, windowMs: number): RateLimitResult {
      return hit.immediate(bucket, limit, windowMs);
    },
    /** Drop hits older than the longest window in use (cron). */
    pruneOlderThan(ms: number): number {
      return pruneAll.run(now().getTime() - ms).changes;
    },
  };
}

export type RateLimitStore = ReturnType<typeof createRateLimitStore>;
