import type { Db } from '../../data/db.js';
import { ulid } from './ulid.js';

export type Caller = 'web' | 'api' | 'other';

export interface Turn {
  threadId: string;
  projectId: string;
  caller: Caller;
  askedAt: Date;
  answeredAt: Date;
  query: string;
  response: string;
  sources: { title: string; url: string }[];
  resolution: 'answered' | 'unanswered';
  pageUrl: string | null;
}

interface TurnRow {
  id: string;
  thread_id: string;
  asked_at: string;
  answered_at: string;
  query: string;
  response: string;
  sources: string;
  resolution: 'answered' | 'unanswered';
  page_url: string | null;
}

/**
 * Stored conversations. A thread id is made here (a ULID); a caller's `threadId` continues a
 * thread only when it names one of the same project, otherwise a new thread starts (a made-up id
 * cannot attach turns to another project's thread).
 */
export function createConversationStore(db: Db, now: () => Date) {
  const threadOf = db.prepare<[string, string], { id: string; created_at: string }>('SELECT id, created_at FROM assistant_threads WHERE id = ? AND project_id = ?');
  const insertThread = db.prepare('INSERT INTO assistant_threads (id, project_id, created_at) VALUES (?, ?, ?)');
  const insertTurn = db.prepare(
    `INSERT INTO assistant_turns (id, thread_id, project_id, caller, asked_at, answered_at, query, response, sources, resolution, page_url)
     VALUES (@id, @threadId, @projectId, @caller, @askedAt, @answeredAt, @query, @response, @sources, @resolution, @pageUrl)`,
  );
  const page = db.prepare<[string, string, string, string, number], TurnRow>(
    'SELECT * FROM assistant_turns WHERE project_id = ? AND id > ? AND asked_at >= ? AND asked_at < ? ORDER BY id LIMIT ?',
  );
  const threadTurns = db.prepare<[string], TurnRow>('SELECT * FROM assistant_turns WHERE thread_id = ? ORDER BY id');
  const callers = db.prepare<[string, string, string], { caller: Caller; n: number }>(
    'SELECT caller, count(*) AS n FROM assistant_turns WHERE project_id = ? AND asked_at >= ? AND asked_at < ? GROUP BY caller',
  );
  const deleteOld = db.prepare('DELETE FROM assistant_turns WHERE asked_at < ?');
  const deleteEmpty = db.prepare('DELETE FROM assistant_threads WHERE created_at < ? AND NOT EXISTS (SELECT 1 FROM assistant_turns t WHERE t.thread_id = assistant_threads.id)');

  return {
    /** The thread to add a turn to: the caller's, when it is one of this project's, or a new one. */
    thread(projectId: string, requested: string | null | undefined): string {
      if (requested && threadOf.get(requested, projectId)) return requested;
      const id = ulid(now().getTime());
      insertThread.run(id, projectId, now().toISOString());
      return id;
    },
    addTurn(t: Turn): string {
      const id = ulid(t.askedAt.getTime());
      insertTurn.run({
        id,
        threadId: t.threadId,
        projectId: t.projectId,
        caller: t.caller,
        askedAt: t.askedAt.toISOString(),
        answeredAt: t.answeredAt.toISOString(),
        query: t.query,
        response: t.response,
        sources: JSON.stringify(t.sources),
        resolution: t.resolution,
        pageUrl: t.pageUrl,
      });
      return id;
    },
    /** Turns of a project asked in [from, to), after `cursor` (a turn id), oldest first. */
    turns(projectId: string, opts: { from: Date; to: Date; cursor: string | null; limit: number }) {
      return page.all(projectId, opts.cursor ?? '', opts.from.toISOString(), opts.to.toISOString(), opts.limit).map((r) => ({
        id: r.id,
        threadId: r.thread_id,
        askedAt: r.asked_at,
        answeredAt: r.answered_at,
        query: r.query,
        response: r.response,
        sources: JSON.parse(r.sources) as { title: string; url: string }[],
        resolution: r.resolution,
        pageUrl: r.page_url,
      }));
    },
    threadTranscript(projectId: string, threadId: string) {
      const thread = threadOf.get(threadId, projectId);
      if (!thread) return undefined;
      const messages = threadTurns.all(threadId).flatMap((r) => [
        { id: `${r.id}-q`, role: 'user' as const, content: r.query, createdAt: r.asked_at },
        { id: `${r.id}-a`, role: 'assistant' as const, content: r.response, createdAt: r.answered_at },
      ]);
      return { threadId, createdAt: thread.created_at, messages };
    },
    callerStats(projectId: string, from: Date, to: Date) {
      const out = { web: 0, api: 0, other: 0, total: 0 };
      for (const r of callers.all(projectId, from.toISOString(), to.toISOString())) {
        out[r.caller] += r.n;
        out.total += r.n;
      }
      return out;
    },
    /** The retention policy: turns asked before `cutoff`, then threads left empty. */
    deleteBefore(cutoff: Date): number {
      const n = deleteOld.run(cutoff.toISOString()).changes;
      deleteEmpty.run(cutoff.toISOString());
      return n;
    },
  };
}

export type ConversationStore = ReturnType<typeof createConversationStore>;
