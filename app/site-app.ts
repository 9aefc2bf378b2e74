import type http from 'node:http';
import express, { type Express } from 'express';
import type { AppContext } from './context.js';
import type { Feature } from './feature.js';
import { accessLog } from './http/access-log.js';
import { redactUrl } from './logger.js';
import { requestId } from './http/request-id.js';
import './http/types.js';

/** The docs readers' listener: event beacons and the active site, as the features mount them. */
export function buildSiteApp(ctx: AppContext, features: readonly Feature[]): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', ctx.config.admin.trustProxy);
  app.use(requestId());
  app.use(accessLog(ctx.log, ctx.metrics, 'site'));
  for (const f of features) if (f.siteRouter) app.use(f.siteRouter);
  const fast = features.flatMap((f) => (f.siteFastPath ? [f.siteFastPath] : []));
  if (fast.length) {
    // Express's per-request setup (prototypes, final handler, the middleware chain) is skipped
    // for what a fast path answers; the rest goes through the app unchanged.
    const expressApp = app as unknown as { handle: (req: http.IncomingMessage, res: http.ServerResponse, next?: unknown) => void };
    const handle = expressApp.handle.bind(app);
    expressApp.handle = (req, res, next) => {
      // Outside Express, so outside its error path: a fault here must not reach the process.
      try {
        for (const f of fast) if (f(req, res)) return;
      } catch (err) {
        ctx.log.error({ err, url: redactUrl(req.url ?? '') }, 'site fast path failed; the request takes the full path');
        if (res.headersSent) return void res.destroy();
      }
      handle(req, res, next);
    };
  }
  app.use((_req, res) => {
    res.status(404).type('text/plain').send('Not found\n');
  });
  app.use(((err, req, res, _next) => {
    ctx.log.error({ reqId: req.id, err }, 'site error');
    if (!res.headersSent) res.status(500).type('text/plain').send('Internal server error\n');
    else res.destroy();
  }) as express.ErrorRequestHandler);
  return app;
}
