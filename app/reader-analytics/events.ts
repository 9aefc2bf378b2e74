import type { FeedbackInput, FeedbackSource } from '../../data/stores/page-feedback.js';

/** Limits of one reader event (docs/analytics.md, "Reader analytics"). */
export const READER_LIMITS = {
  pathChars: 512,
  idChars: 64,
  reasonChars: 100,
  commentChars: 1000,
  codeChars: 4000,
  filenameChars: 200,
  langChars: 40,
} as const;

const PATH_RE = /^\/[^\s?#]*$/;
const ID_RE = /^[A-Za-z0-9_-]+$/;
// Control characters other than tab and newline are refused in text a person typed.
const CONTROL_RE = /[\u0000-\u0008\u000b-\u001f\u007f]/;
const VIEW_FIELDS = new Set(['type', 'path', 'viewId']);
const AGENT_VIEW_FIELDS = new Set(['type', 'path']);
const FEEDBACK_FIELDS = new Set(['type', 'path', 'feedbackId', 'source', 'helpful', 'reason', 'comment', 'code', 'filename', 'lang']);
/**
 * A page a serving replica's site listener served to an AI agent, forwarded to the publisher
 * (app/replica): taken only with a replica key, since it skips the user-agent classification.
 */
export const AGENT_VIEW_TYPE = 'agentview';
const BEACON_SOURCES: readonly FeedbackSource[] = ['thumbs_only', 'contextual', 'code_snippet'];

export const READER_EVENT_TYPES = new Set(['pageview', 'feedback', AGENT_VIEW_TYPE]);

/**
 * The page a view or feedback is about, one form for every way to address it: `/x`, `/x/`,
 * `/x/index.html`, `/x.html` and the Markdown version `/x.md` are one page; the root is `/`.
 */
export function pagePath(path: string): string {
  let p = path.replace(/\/index\.(?:html|md)$/, '/').replace(/\.(?:html|md)$/, '');
  while (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  return p || '/';
}

export type ReaderEvent =
  | { kind: 'view'; path: string; viewId: string }
  | { kind: 'agentview'; path: string }
  | { kind: 'feedback'; input: Omit<FeedbackInput, 'projectId' | 'atMs'> };

export type ReaderCheck = { ok: true; event: ReaderEvent } | { ok: false; message: string };

function text(e: Record<string, unknown>, name: string, max: number, problems: string[]): string | null {
  const v = e[name];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') return problems.push(`${name}: must be a string`), null;
  const t = v.trim();
  if (t.length > max) return problems.push(`${name}: must be at most ${max} characters`), null;
  if (CONTROL_RE.test(t)) return problems.push(`${name}: must not contain control characters`), null;
  return t.length ? t : null;
}

/**
 * A `pageview` or `feedback` beacon of the served site (no projectId, no timestamp: the receipt
 * time counts), or with `fromReplica` (the request carried a replica key) an `agentview`.
 */
export function checkReaderEvent(value: unknown, fromReplica = false): ReaderCheck {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, message: 'event must be a JSON object' };
  const e = value as Record<string, unknown>;
  const problems: string[] = [];
  if (e.type === AGENT_VIEW_TYPE && !fromReplica) return { ok: false, message: `type: "${AGENT_VIEW_TYPE}" is forwarded by a serving replica only (with its replica key)` };
  const allowed = e.type === 'pageview' ? VIEW_FIELDS : e.type === AGENT_VIEW_TYPE ? AGENT_VIEW_FIELDS : FEEDBACK_FIELDS;
  for (const k in e) if (!allowed.has(k)) problems.push(`unknown field "${k}"`);
  let path = '';
  if (typeof e.path !== 'string') problems.push('path: must be a string');
  else if (e.path.length > READER_LIMITS.pathChars) problems.push(`path: must be at most ${READER_LIMITS.pathChars} characters`);
  else if (!PATH_RE.test(e.path)) problems.push('path: must be a site path starting with "/" (no spaces, query or fragment)');
  else path = pagePath(e.path);
  if (e.type === AGENT_VIEW_TYPE) return problems.length ? { ok: false, message: problems.join('; ') } : { ok: true, event: { kind: 'agentview', path } };
  const idName = e.type === 'pageview' ? 'viewId' : 'feedbackId';
  const id = e[idName];
  if (typeof id !== 'string' || id.length === 0 || id.length > READER_LIMITS.idChars || !ID_RE.test(id)) {
    problems.push(`${idName}: must be 1 to ${READER_LIMITS.idChars} of A-Z a-z 0-9 _ -`);
  }
  if (e.type === 'pageview') {
    if (problems.length) return { ok: false, message: problems.join('; ') };
    return { ok: true, event: { kind: 'view', path, viewId: id as string } };
  }
  const source = e.source as FeedbackSource;
  if (!BEACON_SOURCES.includes(source)) problems.push(`source: must be one of ${BEACON_SOURCES.join(', ')}`);
  let helpful: boolean | null = null;
  if (source === 'code_snippet') {
    if (e.helpful !== undefined) problems.push('helpful: code snippet feedback has no rating');
  } else if (typeof e.helpful !== 'boolean') problems.push('helpful: must be true or false');
  else helpful = e.helpful;
  const reason = text(e, 'reason', READER_LIMITS.reasonChars, problems);
  const comment = text(e, 'comment', READER_LIMITS.commentChars, problems);
  let code: string | null = null;
  let filename: string | null = null;
  let lang: string | null = null;
  if (source === 'code_snippet') {
    code = text(e, 'code', READER_LIMITS.codeChars, problems);
    if (code === null && !problems.some((p) => p.startsWith('code:'))) problems.push('code: the code of the snippet is required');
    filename = text(e, 'filename', READER_LIMITS.filenameChars, problems);
    lang = text(e, 'lang', READER_LIMITS.langChars, problems);
    if (comment === null && !problems.some((p) => p.startsWith('comment:'))) problems.push('comment: code snippet feedback needs a comment');
  } else {
    for (const k of ['code', 'filename', 'lang']) if (e[k] !== undefined) problems.push(`${k}: only code snippet feedback has it`);
    if (source === 'thumbs_only' && (reason !== null || comment !== null)) problems.push('source: a vote with a reason or comment is "contextual"');
  }
  if (problems.length) return { ok: false, message: problems.join('; ') };
  return { ok: true, event: { kind: 'feedback', input: { publicId: id as string, path, source, helpful, reason, comment, code, filename, lang } } };
}
