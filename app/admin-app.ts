import express, { type Express } from 'express';
import helmet from 'helmet';
import type { AppContext } from './context.js';
import type { Feature } from './feature.js';
import { accessLog } from './http/access-log.js';
import { requestId } from './http/request-id.js';
import { requireAdminKey } from './http/auth.js';
import { jsonBody } from './http/json-body.js';
import { errorHandler, notFound } from './http/error-handler.js';
import { createSystemRouter } from './core/system-router.js';
import './http/types.js';

/** The admin API listener: built from its dependencies, started elsewhere (tests use it unstarted). */
export function buildAdminApp(ctx: AppContext, features: readonly Feature[]): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', ctx.config.admin.trustProxy);
  app.set('etag', false);
  app.use(requestId());
  app.use(accessLog(ctx.log, ctx.metrics, 'admin'));
  app.use(
    helmet({
      // JSON only: nothing may load or frame it. helmet's defaults would add upgrade-insecure-requests.
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
      // The appliance speaks plain HTTP. HSTS pins the whole host, every port: sent through an
      // operator's TLS proxy it would force https onto a docs site served over http on that host.
      // Whether to send it is the TLS terminator's decision.
      strictTransportSecurity: false,
    }),
  );
  app.use(createSystemRouter(ctx, features));
  for (const f of features) if (f.adminPublicRouter) app.use(f.adminPublicRouter);
  app.use(['/v1', '/v2'], requireAdminKey(ctx.stores));
  app.use(jsonBody(ctx.config.admin.maxBodyBytes));
  for (const f of features) if (f.adminRouter) app.use(f.adminRouter);
  app.use(notFound());
  app.use(errorHandler(ctx.log));
  return app;
}
