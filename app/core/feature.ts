import type { AppContext } from '../context.js';
import type { Feature } from '../feature.js';

/** Housekeeping that belongs to no single feature. */
export function createCoreFeature(ctx: AppContext): Feature {
  return {
    name: 'core',
    cron: [
      {
        // Steady readers can keep the WAL growing; a passive checkpoint every few minutes bounds it.
        name: 'wal-checkpoint',
        schedule: '*/5 * * * *',
        run: () => ctx.db.pragma('wal_checkpoint(PASSIVE)'),
      },
      {
        // The longest window any limiter uses is one hour.
        name: 'rate-limit-prune',
        schedule: '17 * * * *',
        run: () => ({ pruned: ctx.stores.rateLimits.pruneOlderThan(3600_000) }),
      },
    ],
  };
}
