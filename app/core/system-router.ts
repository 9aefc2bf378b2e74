import { Router } from 'express';
import type { AppContext } from '../context.js';
import type { Feature, ReadyCheck } from '../feature.js';
import { buildOpenApiDocument } from '../openapi/index.js';

const CONSOLE_PATH = '/console';

/** Health, readiness, metrics and the API description: no admin key needed. */
export function createSystemRouter(ctx: AppContext, features: readonly Feature[]): Router {
  const router = Router();
  const openapi = JSON.stringify(buildOpenApiDocument(ctx.config.admin.publicUrl));

  // An operator's browser pointed at the admin port lands on the console; a JSON client is told where things are.
  router.get('/', (req, res) => {
    const consoleOn = ctx.config.console.enabled;
    if (consoleOn && req.accepts(['json', 'html']) === 'html') return res.redirect(302, CONSOLE_PATH);
    res.json({ service: 'docs-appliance admin API', openapi: '/openapi.json', ...(consoleOn ? { console: CONSOLE_PATH } : {}) });
  });

  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  router.get('/readyz', (_req, res) => {
    const checks: Record<string, ReadyCheck> = { database: databaseCheck(ctx) };
    for (const f of features) if (f.ready) checks[f.name] = safeCheck(f.ready);
    const failing = Object.entries(checks).filter(([, c]) => !c.ok && c.critical);
    const ready = !ctx.lifecycle.shuttingDown && failing.length === 0;
    // Ready, but a check that does not stop it fails (one of several sites not served, a replica
    // not synchronised): still 200, so the listener keeps serving what it can, and said so.
    const degraded = ready && Object.values(checks).some((c) => !c.ok);
    res.status(ready ? 200 : 503).json({
      status: ready ? (degraded ? 'degraded' : 'ready') : 'not ready',
      ...(ctx.lifecycle.shuttingDown ? { reason: 'shutting down' } : {}),
      checks,
    });
  });

  router.get('/metrics', async (_req, res, next) => {
    try {
      res.type(ctx.metrics.registry.contentType).send(await ctx.metrics.registry.metrics());
    } catch (err) {
      next(err);
    }
  });

  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(openapi);
  });
  return router;
}

function databaseCheck(ctx: AppContext): ReadyCheck {
  try {
    ctx.db.prepare('SELECT 1').get();
    return { ok: true, critical: true };
  } catch (err) {
    return { ok: false, critical: true, detail: `database unavailable: ${(err as Error).message}` };
  }
}

function safeCheck(fn: () => ReadyCheck): ReadyCheck {
  try {
    return fn();
  } catch (err) {
    return { ok: false, critical: false, detail: (err as Error).message };
  }
}
