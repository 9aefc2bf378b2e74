import { FEEDBACK_SOURCES, FEEDBACK_STATUSES, type FeedbackSource, type FeedbackStatus } from '../../data/stores/page-feedback.js';
import { invalidInput } from '../errors.js';
import { parseInstant, singleParam } from '../analytics/report-params.js';

/** The documented bounds of each operation's `limit` (analytics.openapi.json). */
export const TRAFFIC_LIMIT = { default: 50, max: 250 } as const;
export const FEEDBACK_LIMIT = { default: 50, max: 100 } as const;
export const BY_PAGE_LIMIT = { default: 10, max: 100 } as const;

type Query = Record<string, unknown>;

/** Reads one parameter at a time, collecting every problem for one 400 (each one `details` entry). */
function reader(query: Query) {
  const problems: string[] = [];
  const single = (name: string): string | undefined => singleParam(query, name, problems);
  const range = () => {
    const out = { fromMs: null as number | null, toMs: null as number | null };
    for (const [name, field] of [['dateFrom', 'fromMs'], ['dateTo', 'toMs']] as const) {
      const raw = single(name);
      if (raw === undefined) continue;
      const t = parseInstant(raw);
      if (t === undefined) problems.push(`${name}: "${raw.slice(0, 64)}" is not an ISO 8601 date-time or YYYY-MM-DD`);
      else out[field] = t;
    }
    if (out.fromMs !== null && out.toMs !== null && out.fromMs >= out.toMs) problems.push('dateFrom must be before dateTo (dateTo is exclusive)');
    return out;
  };
  const integer = (name: string, min: number, max: number, fallback: number) => {
    const raw = single(name);
    if (raw === undefined) return fallback;
    if (!/^\d{1,15}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name}: must be an integer from ${min} to ${max === Number.MAX_SAFE_INTEGER ? 'any size' : max} (got "${raw.slice(0, 32)}")`);
      return fallback;
    }
    return Number(raw);
  };
  const source = (): FeedbackSource[] | null => {
    const raw = single('source');
    if (raw === undefined) return null;
    if (!(FEEDBACK_SOURCES as readonly string[]).includes(raw)) {
      problems.push(`source: must be one of ${FEEDBACK_SOURCES.join(', ')} (got "${raw.slice(0, 32)}")`);
      return null;
    }
    return [raw as FeedbackSource];
  };
  const statuses = (): FeedbackStatus[] | null => {
    const raw = single('status');
    if (raw === undefined) return null;
    const list = raw.split(',').map((s) => s.trim()).filter(Boolean);
    const bad = list.filter((s) => !(FEEDBACK_STATUSES as readonly string[]).includes(s));
    if (list.length === 0 || bad.length) {
      problems.push(`status: must be a comma-separated list of ${FEEDBACK_STATUSES.join(', ')}${bad.length ? ` (unknown: ${bad.slice(0, 5).join(', ').slice(0, 100)})` : ''}`);
      return null;
    }
    return [...new Set(list)] as FeedbackStatus[];
  };
  const done = () => {
    if (problems.length) throw invalidInput('query parameters', problems);
  };
  return { single, range, integer, source, statuses, done, problems };
}

/** views and visitors: dateFrom, dateTo, limit 1–250 (50), offset ≥ 0 (0). */
export function parseTrafficParams(query: Query) {
  const r = reader(query);
  const range = r.range();
  const limit = r.integer('limit', 1, TRAFFIC_LIMIT.max, TRAFFIC_LIMIT.default);
  const offset = r.integer('offset', 0, Number.MAX_SAFE_INTEGER, 0);
  r.done();
  return { ...range, limit, offset };
}

/** feedback: dateFrom, dateTo, source, status, limit 1–100 (50), cursor. */
export function parseFeedbackParams(query: Query) {
  const r = reader(query);
  const range = r.range();
  const sources = r.source();
  const statuses = r.statuses();
  const limit = r.integer('limit', 1, FEEDBACK_LIMIT.max, FEEDBACK_LIMIT.default);
  const cursor = r.single('cursor');
  let after: { createdMs: number; pkId: number; projectId: string } | undefined;
  if (cursor !== undefined) {
    after = decodeFeedbackCursor(cursor);
    if (!after) r.problems.push('cursor: must be the nextCursor of a previous response');
  }
  r.done();
  return { filter: { ...range, sources, statuses }, limit, after };
}

/** feedback/by-page: dateFrom, dateTo, source, status, limit 1–100 (10). */
export function parseByPageParams(query: Query) {
  const r = reader(query);
  const range = r.range();
  const sources = r.source();
  const statuses = r.statuses();
  const limit = r.integer('limit', 1, BY_PAGE_LIMIT.max, BY_PAGE_LIMIT.default);
  r.done();
  return { filter: { ...range, sources, statuses }, limit };
}

/**
 * A feedback cursor is the position after the last row shown (its time and row): keyset paging,
 * so feedback arriving meanwhile (newer) never shifts later pages. It carries no secret and
 * grants nothing: the project comes from the path and is checked against the cursor's.
 */
export function encodeFeedbackCursor(projectId: string, last: { createdMs: number; pkId: number }): string {
  return Buffer.from(JSON.stringify({ v: 1, p: projectId, t: last.createdMs, i: last.pkId })).toString('base64url');
}

function decodeFeedbackCursor(cursor: string): { createdMs: number; pkId: number; projectId: string } | undefined {
  if (cursor.length === 0 || cursor.length > 512 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    const c = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { v: number; p: unknown; t: unknown; i: unknown };
    if (c?.v !== 1 || typeof c.p !== 'string' || !Number.isSafeInteger(c.t) || !Number.isSafeInteger(c.i)) return undefined;
    return { projectId: c.p, createdMs: c.t as number, pkId: c.i as number };
  } catch {
    return undefined;
  }
}
