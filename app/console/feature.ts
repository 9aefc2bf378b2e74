import type { AppContext } from '../context.js';
import type { Feature } from '../feature.js';
import { createConsoleRouter, type ConsoleDeps } from './router.js';

/**
 * The admin console (issue 22, docs/console.md) on the admin listener. It authenticates with its
 * own sessions, so it is mounted with the routes that authenticate themselves; publishing and
 * reader analytics appear when their services are passed in `deps`.
 */
export function createConsoleFeature(ctx: AppContext, deps: ConsoleDeps = {}): Feature {
  return {
    name: 'console',
    ...(ctx.config.console.enabled ? { adminPublicRouter: createConsoleRouter(ctx, deps) } : {}),
    cron: [
      {
        name: 'console-sessions-prune',
        schedule: '17 * * * *',
        run: () => ({ pruned: ctx.stores.consoleSessions.prune(ctx.config.console.idleMinutes * 60_000) }),
      },
    ],
  };
}
