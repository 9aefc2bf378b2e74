import { invalidInput } from '../errors.js';

export const LIMIT_DEFAULT = 50;
export const LIMIT_MAX = 100;

export interface ReportParams {
  fromMs: number | null;
  toMs: number | null;
  limit: number;
  cursor: string | null;
  /** Which of dateFrom, dateTo and limit the request gave (a cursor supplies the others). */
  given: { dateFrom: boolean; dateTo: boolean; limit: boolean };
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
// Offset honoured; without one the time is read as UTC (the appliance's clock zone is irrelevant).
const DATETIME_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

function validDate(y: number, m: number, d: number): boolean {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** `YYYY-MM-DD` (midnight UTC) or an ISO 8601 date-time; undefined when neither. */
export function parseInstant(s: string): number | undefined {
  let m = DATE_RE.exec(s);
  if (m) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    return validDate(y, mo, d) ? Date.UTC(y, mo - 1, d) : undefined;
  }
  m = DATETIME_RE.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h, mi, sec] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  if (!validDate(y, mo, d) || h > 23 || mi > 59 || sec > 59) return undefined;
  const ms = Math.floor(Number(`0.${m[7] ?? '0'}`) * 1000);
  let t = Date.UTC(y, mo - 1, d, h, mi, sec, ms);
  const zone = m[8];
  if (zone && zone.toUpperCase() !== 'Z') {
    const z = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)!;
    const minutes = Number(z[2]) * 60 + Number(z[3]);
    if (Number(z[2]) > 23 || Number(z[3]) > 59) return undefined;
    t -= (z[1] === '-' ? -1 : 1) * minutes * 60_000;
  }
  return t;
}

/** A query parameter given once as a plain value; a repeated or nested one adds a problem (one `details` entry of the 400). */
export function singleParam(query: Record<string, unknown>, name: string, problems: string[]): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') {
    problems.push(`${name}: must be given once, as a plain value`);
    return undefined;
  }
  return v;
}

/**
 * The query parameters of GET /v1/analytics/{projectId}/searches. Every problem is one detail
 * of the 400; unknown parameters are ignored (scripts may add their own cache busters).
 */
export function parseReportParams(query: Record<string, unknown>): ReportParams {
  const problems: string[] = [];
  const single = (name: string): string | undefined => singleParam(query, name, problems);
  const rawFrom = single('dateFrom');
  const rawTo = single('dateTo');
  const rawLimit = single('limit');
  const rawCursor = single('cursor');

  let fromMs: number | null = null;
  let toMs: number | null = null;
  if (rawFrom !== undefined) {
    const t = parseInstant(rawFrom);
    if (t === undefined) problems.push(`dateFrom: "${rawFrom.slice(0, 64)}" is not an ISO 8601 date-time or YYYY-MM-DD`);
    else fromMs = t;
  }
  if (rawTo !== undefined) {
    const t = parseInstant(rawTo);
    if (t === undefined) problems.push(`dateTo: "${rawTo.slice(0, 64)}" is not an ISO 8601 date-time or YYYY-MM-DD`);
    else toMs = t;
  }
  if (fromMs !== null && toMs !== null && fromMs >= toMs) problems.push('dateFrom must be before dateTo (dateTo is exclusive)');

  let limit = LIMIT_DEFAULT;
  if (rawLimit !== undefined) {
    if (!/^\d{1,4}$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > LIMIT_MAX) problems.push(`limit: must be an integer from 1 to ${LIMIT_MAX} (got "${rawLimit.slice(0, 32)}")`);
    else limit = Number(rawLimit);
  }
  let cursor: string | null = null;
  if (rawCursor !== undefined) {
    if (rawCursor.length === 0 || rawCursor.length > 2048) problems.push('cursor: must be the nextCursor of a previous response');
    else cursor = rawCursor;
  }
  if (problems.length) throw invalidInput('query parameters', problems);
  return { fromMs, toMs, limit, cursor, given: { dateFrom: rawFrom !== undefined, dateTo: rawTo !== undefined, limit: rawLimit !== undefined } };
}
