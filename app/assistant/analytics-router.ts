import { Router, type Request } from 'express';
import type { Stores } from '../../data/stores/index.js';
import { parseInstant } from '../analytics/report-params.js';
import { errors, invalidInput } from '../errors.js';
import { projectFor } from '../http/auth.js';
import type { ConversationStore } from './conversations.js';
import { ULID_RE } from './ulid.js';

const LIMIT_DEFAULT = 100;
const LIMIT_MAX = 1000;
const EPOCH = new Date(0);
// ISO strings compare as text in SQLite: a year past 9999 would print as "+2757…" and sort first.
const FAR = new Date('9999-12-31T23:59:59.999Z');

/** dateFrom/dateTo as the analytics document reads them (dateTo exclusive), problems collected. */
function range(req: Request, problems: string[]): { from: Date; to: Date } {
  const read = (name: 'dateFrom' | 'dateTo'): Date | undefined => {
    const v = req.query[name];
    if (v === undefined) return undefined;
    const t = typeof v === 'string' ? parseInstant(v) : undefined;
    if (t === undefined) problems.push(`${name}: must be given once, as an ISO 8601 date-time or YYYY-MM-DD`);
    return t === undefined ? undefined : new Date(t);
  };
  const from = read('dateFrom') ?? EPOCH;
  const to = read('dateTo') ?? FAR;
  if (from >= to) problems.push('dateFrom must be before dateTo (dateTo is exclusive)');
  return { from, to };
}

/**
 * The analytics document's assistant operations, fed by the stored conversations: turns
 * (`/assistant`, oldest first, cursor = the last turn's ULID), one thread's transcript, and the
 * count of questions by caller (web: the site's panel; api: the discovery API). They sit behind the
 * admin key and share the organization's hourly analytics limit (mounted after its router).
 */
export function createAssistantAnalyticsRouter(deps: { stores: Stores; conversations: ConversationStore }): Router {
  const router = Router();

  router.get('/v1/analytics/:projectId/assistant', (req, res) => {
    const project = projectFor(req, deps.stores, req.params.projectId);
    const problems: string[] = [];
    const { from, to } = range(req, problems);
    let limit = LIMIT_DEFAULT;
    const rawLimit = req.query.limit;
    if (rawLimit !== undefined) {
      if (typeof rawLimit !== 'string' || !/^\d{1,4}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > LIMIT_MAX) problems.push(`limit: must be an integer from 1 to ${LIMIT_MAX}`);
      else limit = Number(rawLimit);
    }
    const cursor = req.query.cursor;
    if (cursor !== undefined && (typeof cursor !== 'string' || !ULID_RE.test(cursor))) problems.push('cursor: must be the nextCursor of a previous response (a ULID)');
    if (problems.length) throw invalidInput('query parameters', problems);
    const rows = deps.conversations.turns(project.id, { from, to, cursor: (cursor as string | undefined) ?? null, limit: limit + 1 });
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    res.setHeader('Cache-Control', 'no-store');
    res.json({
      conversations: page.map((r) => ({
        id: r.id,
        timestamp: r.askedAt,
        query: r.query,
        response: r.response,
        responseType: 'answer',
        sources: r.sources,
        resolutionStatus: r.resolution,
        queryCategory: null,
        pageUrl: r.pageUrl,
      })),
      nextCursor: hasMore ? page[page.length - 1]!.id : null,
      hasMore,
    });
  });

  router.get('/v1/analytics/:projectId/assistant/threads/:threadId', (req, res) => {
    const project = projectFor(req, deps.stores, req.params.projectId);
    if (!ULID_RE.test(req.params.threadId)) throw invalidInput('thread ID', ['threadId: must be a ULID']);
    const thread = deps.conversations.threadTranscript(project.id, req.params.threadId);
    if (!thread) throw errors.threadNotFound();
    res.setHeader('Cache-Control', 'no-store');
    res.json(thread);
  });

  router.get('/v1/analytics/:projectId/assistant/caller-stats', (req, res) => {
    const project = projectFor(req, deps.stores, req.params.projectId);
    const problems: string[] = [];
    const { from, to } = range(req, problems);
    if (problems.length) throw invalidInput('query parameters', problems);
    res.setHeader('Cache-Control', 'no-store');
    res.json(deps.conversations.callerStats(project.id, from, to));
  });
  return router;
}
