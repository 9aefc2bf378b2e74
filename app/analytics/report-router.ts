import { Router } from 'express';
import type { Config } from '../../config/schema.js';
import type { Stores } from '../../data/stores/index.js';
import type { Clock } from '../clock.js';
import { invalidInput } from '../errors.js';
import { projectFor } from '../http/auth.js';
import { rateLimit } from '../http/rate-limit.js';
import { CursorError, type CursorCodec } from './cursor.js';
import { parseReportParams } from './report-params.js';
import type { ReportService } from './report.js';

const HOUR_MS = 3600_000;

/**
 * GET /v1/analytics/{projectId}/searches (DESIGN 3.3). The hourly organization limit is counted
 * before anything else is checked, so failing requests count too, and it covers every route
 * under /v1/analytics, unknown ones included.
 */
export function createReportRouter(deps: {
  config: () => Readonly<Config>;
  stores: Stores;
  clock: Clock;
  report: ReportService;
  cursors: CursorCodec;
  /** Write what the beacon buffer holds before reading. */
  flush: () => void;
}): Router {
  const router = Router();
  router.use(
    '/v1/analytics',
    rateLimit({
      store: deps.stores.rateLimits,
      key: (req) => (req.auth ? `analytics:${req.auth.org.id}` : undefined),
      // A getter: SIGHUP may change the configured limit.
      get limit() {
        return deps.config().analytics.rateLimitPerHour;
      },
      windowMs: HOUR_MS,
    }),
  );

  router.get('/v1/analytics/:projectId/searches', (req, res) => {
    const project = projectFor(req, deps.stores, req.params.projectId);
    const params = parseReportParams(req.query as Record<string, unknown>);
    let range = { fromMs: params.fromMs, toMs: params.toMs };
    let limit = params.limit;
    let pin: { maxId: number; after: { hits: number; norm: string } } | undefined;
    // Every cursor of a chain keeps the first page's issue time: the chain expires as a whole.
    let issuedMs = deps.clock.now().getTime();
    if (params.cursor) {
      let state;
      try {
        state = deps.cursors.decode(params.cursor, deps.clock.now().getTime());
      } catch (err) {
        if (err instanceof CursorError) throw invalidInput('cursor', [`cursor: ${err.message}`]);
        throw err;
      }
      const problems: string[] = [];
      if (state.projectId !== project.id) problems.push('cursor: belongs to another project');
      // Parameters left out are taken from the cursor; parameters given must be the same.
      if (params.given.dateFrom && state.fromMs !== params.fromMs) problems.push('cursor: was issued for another dateFrom');
      if (params.given.dateTo && state.toMs !== params.toMs) problems.push('cursor: was issued for another dateTo');
      if (params.given.limit && state.limit !== params.limit) problems.push('cursor: was issued for another limit');
      if (problems.length) throw invalidInput('cursor', problems);
      range = { fromMs: state.fromMs, toMs: state.toMs };
      limit = state.limit;
      pin = { maxId: state.maxId, after: state.after };
      issuedMs = state.issuedMs;
    } else {
      deps.flush();
    }
    const page = deps.report.page(project.id, range, limit, pin);
    const nextCursor = page.next
      ? deps.cursors.encode({ projectId: project.id, ...range, limit, maxId: page.maxId, after: page.next, issuedMs })
      : null;
    res.setHeader('Cache-Control', 'no-store');
    res.json({ searches: page.searches, totalSearches: page.totalSearches, nextCursor });
  });
  return router;
}

