import type { Db } from '../db.js';

export const FEEDBACK_SOURCES = ['code_snippet', 'contextual', 'agent', 'thumbs_only'] as const;
export type FeedbackSource = (typeof FEEDBACK_SOURCES)[number];
export const FEEDBACK_STATUSES = ['pending', 'in_progress', 'resolved', 'dismissed'] as const;
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];

/** A vote may be completed (comment, reason) under the same id for this long after it was cast. */
export const FEEDBACK_UPGRADE_MS = 3600_000;

export interface FeedbackInput {
  projectId: string;
  /** The id the reader's browser chose; the same id later upgrades the row instead of adding one. */
  publicId: string;
  atMs: number;
  path: string;
  source: FeedbackSource;
  helpful: boolean | null;
  reason: string | null;
  comment: string | null;
  code: string | null;
  filename: string | null;
  lang: string | null;
}

export interface FeedbackRecord {
  id: string;
  projectId: string;
  path: string;
  createdAtMs: number;
  source: FeedbackSource;
  helpful: boolean | null;
  reason: string | null;
  comment: string | null;
  code: string | null;
  filename: string | null;
  lang: string | null;
  status: FeedbackStatus;
  statusAtMs: number | null;
}

export interface FeedbackFilter {
  fromMs: number | null;
  toMs: number | null;
  sources: readonly FeedbackSource[] | null;
  statuses: readonly FeedbackStatus[] | null;
}

interface Row {
  pk_id: number;
  public_id: string;
  project_id: string;
  created_ms: number;
  path: string;
  source: FeedbackSource;
  helpful: number | null;
  reason: string | null;
  comment: string | null;
  code: string | null;
  filename: string | null;
  lang: string | null;
  status: FeedbackStatus;
  status_at_ms: number | null;
}

const toRecord = (r: Row): FeedbackRecord => ({
  id: r.public_id,
  projectId: r.project_id,
  path: r.path,
  createdAtMs: r.created_ms,
  source: r.source,
  helpful: r.helpful === null ? null : r.helpful === 1,
  reason: r.reason,
  comment: r.comment,
  code: r.code,
  filename: r.filename,
  lang: r.lang,
  status: r.status,
  statusAtMs: r.status_at_ms,
});

/**
 * Page feedback: the store behind the beacon, the list report, the CLI and (issue 22) the
 * console. The list reads rows through the (project, time) index; counts per page come from an
 * in-memory index kept by `seq` (app/reader-analytics/feedback-by-page.ts), so a status change
 * is visible to every report at once. Comments are shown only through these functions, which callers reach with an admin key
 * of the project's organization (the reports) or the state directory (the CLI).
 */
export function createPageFeedbackStore(db: Db) {
  const projectPkSel = db.prepare<[string], { pk: number }>('SELECT pk FROM search_projects WHERE project_id = ?');
  const projectPkIns = db.prepare('INSERT INTO search_projects (project_id) VALUES (?) ON CONFLICT(project_id) DO NOTHING');
  // A later event with the same id completes the vote (thumbs → thumbs with a comment); the
  // first time, the path and the code of a snippet stay. Past the window it is ignored.
  const upsert = db.prepare(
    `INSERT INTO page_feedback (project_pk, public_id, created_ms, path, source, helpful, reason, comment, code, filename, lang)
     VALUES (@pk, @publicId, @atMs, @path, @source, @helpful, @reason, @comment, @code, @filename, @lang)
     ON CONFLICT (project_pk, public_id) DO UPDATE SET
       source = CASE WHEN source = 'thumbs_only' THEN excluded.source ELSE source END,
       helpful = coalesce(excluded.helpful, helpful),
       reason = coalesce(excluded.reason, reason),
       comment = coalesce(excluded.comment, comment)
     WHERE created_ms >= @atMs - ${FEEDBACK_UPGRADE_MS} AND path = excluded.path
       AND (source = excluded.source OR (source = 'thumbs_only' AND excluded.source = 'contextual'))`,
  );
  const SELECT = `SELECT f.id AS pk_id, f.public_id, p.project_id, f.created_ms, f.path, f.source, f.helpful, f.reason, f.comment,
      f.code, f.filename, f.lang, f.status, f.status_at_ms
    FROM page_feedback f JOIN search_projects p ON p.pk = f.project_pk`;
  const byId = db.prepare<[string, string], Row>(`${SELECT} WHERE p.project_id = ? AND f.public_id = ?`);
  const setStatusSt = db.prepare('UPDATE page_feedback SET status = ?, status_at_ms = ? WHERE project_pk = ? AND public_id = ?');

  const pkOf = (projectId: string) => projectPkSel.get(projectId)?.pk;

  function where(pk: number, f: FeedbackFilter, params: unknown[]): string {
    const parts = ['f.project_pk = ?'];
    params.push(pk);
    if (f.fromMs !== null) parts.push('f.created_ms >= ?'), params.push(f.fromMs);
    if (f.toMs !== null) parts.push('f.created_ms < ?'), params.push(f.toMs);
    if (f.sources) parts.push(`f.source IN (${f.sources.map(() => '?').join(', ')})`), params.push(...f.sources);
    if (f.statuses) parts.push(`f.status IN (${f.statuses.map(() => '?').join(', ')})`), params.push(...f.statuses);
    return parts.join(' AND ');
  }

  return {
    /** Record one piece of feedback (or complete the vote with the same id). */
    record(input: FeedbackInput): void {
      projectPkIns.run(input.projectId);
      const pk = pkOf(input.projectId)!;
      upsert.run({ ...input, pk, helpful: input.helpful === null ? null : input.helpful ? 1 : 0 });
    },
    recordMany(inputs: readonly FeedbackInput[]): void {
      db.transaction(() => {
        for (const i of inputs) this.record(i);
      }).immediate();
    },
    get(projectId: string, id: string): FeedbackRecord | undefined {
      const r = byId.get(projectId, id);
      return r ? toRecord(r) : undefined;
    },
    /**
     * Newest first (created time, then row), `limit` rows after the keyset `after` (the last row
     * of the previous page); `hasMore` says whether another row follows.
     */
    list(projectId: string, filter: FeedbackFilter, limit: number, after?: { createdMs: number; pkId: number }): { rows: FeedbackRecord[]; hasMore: boolean; last?: { createdMs: number; pkId: number } } {
      const pk = pkOf(projectId);
      if (pk === undefined) return { rows: [], hasMore: false };
      const params: unknown[] = [];
      let sql = `${SELECT} WHERE ${where(pk, filter, params)}`;
      if (after) {
        sql += ' AND (f.created_ms < ? OR (f.created_ms = ? AND f.id < ?))';
        params.push(after.createdMs, after.createdMs, after.pkId);
      }
      sql += ' ORDER BY f.created_ms DESC, f.id DESC LIMIT ?';
      params.push(limit + 1);
      const rows = db.prepare<unknown[], Row>(sql).all(...params);
      const hasMore = rows.length > limit;
      const page = rows.slice(0, limit);
      const tail = page[page.length - 1];
      return { rows: page.map(toRecord), hasMore, ...(tail ? { last: { createdMs: tail.created_ms, pkId: tail.pk_id } } : {}) };
    },
    /** Set the review status; the record as it is now, or undefined when there is no such feedback. */
    setStatus(projectId: string, id: string, status: FeedbackStatus, nowMs: number): FeedbackRecord | undefined {
      const pk = pkOf(projectId);
      if (pk === undefined) return undefined;
      if (setStatusSt.run(status, nowMs, pk, id).changes === 0) return undefined;
      return this.get(projectId, id);
    },
  };
}

export type PageFeedbackStore = ReturnType<typeof createPageFeedbackStore>;
