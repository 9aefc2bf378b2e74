import { Router } from 'express';
import type { Stores } from '../../data/stores/index.js';
import type { FeedbackRecord, PageFeedbackStore } from '../../data/stores/page-feedback.js';
import { invalidInput } from '../errors.js';
import { projectFor } from '../http/auth.js';
import { encodeFeedbackCursor, parseByPageParams, parseFeedbackParams, parseTrafficParams } from './report-params.js';
import type { TrafficKind, ViewReport } from './view-report.js';
import type { FeedbackByPageIndex } from './feedback-by-page.js';

/** One feedback entry as the hosted document shows it, per source. */
export function feedbackEntry(f: FeedbackRecord): Record<string, unknown> {
  // The reason a reader picked and the text they typed are one comment, reason first.
  const comment = f.reason && f.comment ? `${f.reason}\n\n${f.comment}` : (f.reason ?? f.comment);
  const base = { id: f.id, path: f.path, comment, createdAt: new Date(f.createdAtMs).toISOString(), source: f.source, status: f.status };
  if (f.source === 'code_snippet') return { ...base, code: f.code ?? '', filename: f.filename, lang: f.lang };
  if (f.source === 'contextual') return { ...base, helpful: f.helpful === true, contact: null };
  if (f.source === 'thumbs_only') return { ...base, helpful: f.helpful === true };
  return base;
}

/**
 * GET /v1/analytics/{projectId}/views, /visitors, /feedback and /feedback/by-page. Mounted after
 * the search report's router, whose /v1/analytics limiter has already counted the request
 * against the organization's shared hourly limit.
 */
export function createReaderReportRouter(deps: { stores: Stores; views: ViewReport; feedback: PageFeedbackStore; byPage: FeedbackByPageIndex; flush: () => void }): Router {
  const router = Router();
  const traffic = (kind: TrafficKind) => (req: import('express').Request, res: import('express').Response) => {
    const project = projectFor(req, deps.stores, req.params.projectId as string);
    const p = parseTrafficParams(req.query as Record<string, unknown>);
    deps.flush();
    const page = deps.views.page(project.id, kind, p, p.limit, p.offset);
    res.setHeader('Cache-Control', 'no-store');
    res.json({ totals: page.totals, [kind]: page.rows, hasMore: page.hasMore });
  };
  router.get('/v1/analytics/:projectId/views', traffic('views'));
  router.get('/v1/analytics/:projectId/visitors', traffic('visitors'));

  router.get('/v1/analytics/:projectId/feedback', (req, res) => {
    const project = projectFor(req, deps.stores, req.params.projectId);
    const p = parseFeedbackParams(req.query as Record<string, unknown>);
    if (p.after && p.after.projectId !== project.id) throw invalidInput('cursor', ['cursor: belongs to another project']);
    deps.flush();
    const page = deps.feedback.list(project.id, p.filter, p.limit, p.after);
    res.setHeader('Cache-Control', 'no-store');
    res.json({
      feedback: page.rows.map(feedbackEntry),
      nextCursor: page.hasMore && page.last ? encodeFeedbackCursor(project.id, page.last) : null,
      hasMore: page.hasMore,
    });
  });

  router.get('/v1/analytics/:projectId/feedback/by-page', (req, res) => {
    const project = projectFor(req, deps.stores, req.params.projectId);
    const p = parseByPageParams(req.query as Record<string, unknown>);
    deps.flush();
    const page = deps.byPage.page(project.id, p.filter, p.limit);
    res.setHeader('Cache-Control', 'no-store');
    res.json({ feedback: page.rows, hasMore: page.hasMore });
  });
  return router;
}
