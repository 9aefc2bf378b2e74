import type { Db } from '../db.js';

/** A job's states, shared by the store, the API views, the CLI, the console and the OpenAPI document. */
export const AGENT_JOB_STATUSES = ['active', 'completed', 'archived', 'failed'] as const;
export type AgentJobStatus = (typeof AGENT_JOB_STATUSES)[number];

/** A job that may be archived (the store's `archive` refuses the others): it has finished. */
export const agentJobArchivable = (status: AgentJobStatus): boolean => status === 'completed' || status === 'failed';
export type AgentRunState = 'queued' | 'running';
export type AgentMessageRole = 'user' | 'assistant' | 'tool';

export interface AgentJobRecord {
  id: string;
  projectId: string;
  orgId: string;
  status: AgentJobStatus;
  /** Only while active: waiting for a runner, or being run. */
  runState: AgentRunState | null;
  repository: string;
  ref: string;
  model: string;
  /** Open the pull request as a draft (v1 `asDraft`). */
  draft: boolean;
  /** The first instruction in one line (v1 `title`); null for jobs older than migration 8. */
  title: string | null;
  /** The model's summary of the last finished turn (v1 `messageToUser`); null until one finishes. */
  summary: string | null;
  /** The pull request once one exists; kept across follow-ups (the API hides it while active). */
  prLink: string | null;
  /** Git host user names asked to review the pull request the job opens (an automation's source authors). */
  reviewers: string[];
  /** Why the last turn failed (null otherwise). */
  error: string | null;
  /** The turn being (or last) processed: 1 for the first prompt, +1 per follow-up. */
  turn: number;
  /** Runs started for the current turn (a restart re-runs it; bounded). */
  attempts: number;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
  archivedAt: string | null;
}

export interface AgentMessage {
  seq: number;
  turn: number;
  role: AgentMessageRole;
  /** The chat message as sent to / received from the model (JSON). */
  body: Record<string, unknown>;
  createdAt: string;
}

interface JobRow {
  id: string;
  project_id: string;
  org_id: string;
  status: AgentJobStatus;
  run_state: AgentRunState | null;
  repository: string;
  ref: string;
  model: string;
  draft: number;
  title: string | null;
  summary: string | null;
  pr_link: string | null;
  reviewers: string | null;
  error: string | null;
  turn: number;
  attempts: number;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
  archived_at: string | null;
}

interface MessageRow {
  seq: number;
  turn: number;
  role: AgentMessageRole;
  body: string;
  created_at: string;
}

const toJob = (r: JobRow): AgentJobRecord => ({
  id: r.id,
  projectId: r.project_id,
  orgId: r.org_id,
  status: r.status,
  runState: r.run_state,
  repository: r.repository,
  ref: r.ref,
  model: r.model,
  draft: r.draft === 1,
  title: r.title,
  summary: r.summary,
  prLink: r.pr_link,
  reviewers: r.reviewers ? (JSON.parse(r.reviewers) as string[]) : [],
  error: r.error,
  turn: r.turn,
  attempts: r.attempts,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  finishedAt: r.finished_at,
  archivedAt: r.archived_at,
});

export interface NewAgentJob {
  id: string;
  projectId: string;
  orgId: string;
  repository: string;
  ref: string;
  model: string;
  prompt: string;
  draft?: boolean;
  title?: string;
  /** An open pull request the job's pushes go to (an automation grouping its runs); none is opened then. */
  prLink?: string | null;
  reviewers?: string[];
}

/** Longest summary kept for a job (the model writes it; the v1 view shows it). */
export const MAX_SUMMARY_CHARS = 4000;

export type FollowUpResult = { ok: true; job: AgentJobRecord } | { ok: false; reason: 'not_found' | 'archived' } | { ok: false; reason: 'full'; bytes: number };
export type ArchiveResult = { ok: true; job: AgentJobRecord } | { ok: false; reason: 'not_found' | 'active' | 'already_archived' };

/**
 * The agent job queue and conversations. Every state change is one transaction, so a job is
 * never seen half-finished (status, prLink and error move together).
 */
export function createAgentJobStore(db: Db, now: () => Date) {
  const iso = () => now().toISOString();
  const get = db.prepare<[string], JobRow>('SELECT * FROM agent_jobs WHERE id = ?');
  const insertJob = db.prepare(
    `INSERT INTO agent_jobs (id, project_id, org_id, status, run_state, repository, ref, model, draft, title, pr_link, reviewers, turn, attempts, created_at, updated_at)
     VALUES (@id, @projectId, @orgId, 'active', 'queued', @repository, @ref, @model, @draft, @title, @prLink, @reviewers, 1, 0, @now, @now)`,
  );
  const nextSeq = db.prepare<[string], { n: number }>('SELECT coalesce(max(seq), 0) + 1 AS n FROM agent_messages WHERE job_id = ?');
  const insertMessage = db.prepare('INSERT INTO agent_messages (job_id, seq, turn, role, body, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  const messagesUpTo = db.prepare<[string, number], MessageRow>('SELECT seq, turn, role, body, created_at FROM agent_messages WHERE job_id = ? AND turn <= ? ORDER BY turn, seq');
  const storedBytes = db.prepare<[string], { n: number }>('SELECT coalesce(sum(length(CAST(body AS BLOB))), 0) AS n FROM agent_messages WHERE job_id = ?');
  const pendingPrompts = db.prepare<[string, number], { n: number }>("SELECT count(*) AS n FROM agent_messages WHERE job_id = ? AND turn > ? AND role = 'user'");
  const dropTurnReplies = db.prepare("DELETE FROM agent_messages WHERE job_id = ? AND turn = ? AND role != 'user'");
  const nextQueued = db.prepare<[], JobRow>("SELECT * FROM agent_jobs WHERE status = 'active' AND run_state = 'queued' ORDER BY updated_at, rowid LIMIT 1");
  const claim = db.prepare<[string, string], JobRow>("UPDATE agent_jobs SET run_state = 'running', attempts = attempts + 1, updated_at = ? WHERE id = ? AND run_state = 'queued' RETURNING *");
  const running = db.prepare<[], JobRow>("SELECT * FROM agent_jobs WHERE status = 'active' AND run_state = 'running' ORDER BY created_at");
  const listByProject = db.prepare<[string], JobRow>('SELECT * FROM agent_jobs WHERE project_id = ? ORDER BY created_at DESC, id');
  const listAll = db.prepare<[], JobRow>('SELECT * FROM agent_jobs ORDER BY created_at DESC, id');
  const pageByProject = db.prepare<[string, number, number], JobRow>('SELECT * FROM agent_jobs WHERE project_id = ? ORDER BY created_at DESC, id LIMIT ? OFFSET ?');
  const activeOnRef = db.prepare<[string, string], JobRow>("SELECT * FROM agent_jobs WHERE project_id = ? AND ref = ? AND status = 'active' LIMIT 1");
  const messagesAfter = db.prepare<[string, number], MessageRow>('SELECT seq, turn, role, body, created_at FROM agent_messages WHERE job_id = ? AND seq > ? ORDER BY seq');
  const active = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM agent_jobs WHERE status = 'active'");
  const activeForOrg = db.prepare<[string], { n: number }>("SELECT count(*) AS n FROM agent_jobs WHERE status = 'active' AND org_id = ?");
  const update = db.prepare(
    `UPDATE agent_jobs SET status = @status, run_state = @runState, pr_link = @prLink, error = @error, summary = @summary, turn = @turn, attempts = @attempts,
       updated_at = @now, finished_at = @finishedAt, archived_at = @archivedAt WHERE id = @id`,
  );
  // An archived job takes no more messages (409): its conversation has no further use.
  const dropArchivedConversations = db.prepare("DELETE FROM agent_messages WHERE job_id IN (SELECT id FROM agent_jobs WHERE status = 'archived')");
  const archiveOld = db.prepare<[{ now: string; cutoff: string }], JobRow>(
    "UPDATE agent_jobs SET status = 'archived', archived_at = @now, updated_at = @now WHERE status IN ('completed', 'failed') AND finished_at <= @cutoff RETURNING *",
  );

  const write = (job: AgentJobRecord) =>
    update.run({
      id: job.id,
      status: job.status,
      runState: job.runState,
      prLink: job.prLink,
      error: job.error,
      summary: job.summary,
      turn: job.turn,
      attempts: job.attempts,
      now: iso(),
      finishedAt: job.finishedAt,
      archivedAt: job.archivedAt,
    });

  const addMessage = (jobId: string, turn: number, role: AgentMessageRole, body: Record<string, unknown>) => {
    const seq = nextSeq.get(jobId)!.n;
    insertMessage.run(jobId, seq, turn, role, JSON.stringify(body), iso());
    return seq;
  };

  /** End of a turn: go on with a prompt that arrived meanwhile, or settle in the final state. */
  const settle = (job: AgentJobRecord, final: { status: 'completed' | 'failed'; prLink: string | null; error: string | null; summary: string | null }): AgentJobRecord => {
    const pending = pendingPrompts.get(job.id, job.turn)!.n > 0;
    const next: AgentJobRecord = pending
      ? { ...job, status: 'active', runState: 'queued', prLink: final.prLink, error: final.error, summary: final.summary, turn: job.turn + 1, attempts: 0, finishedAt: null }
      : { ...job, status: final.status, runState: null, prLink: final.prLink, error: final.error, summary: final.summary, finishedAt: iso() };
    write(next);
    return toJob(get.get(job.id)!);
  };

  return {
    get(id: string): AgentJobRecord | undefined {
      const r = get.get(id);
      return r && toJob(r);
    },
    /** A job of this project; undefined for an unknown id or another project's job. */
    getForProject(id: string, projectId: string): AgentJobRecord | undefined {
      const job = this.get(id);
      return job && job.projectId === projectId ? job : undefined;
    },
    list(projectId?: string): AgentJobRecord[] {
      return (projectId ? listByProject.all(projectId) : listAll.all()).map(toJob);
    },
    /** One page of a project's jobs, newest first (v1 list: skip/take). */
    page(projectId: string, skip: number, take: number): AgentJobRecord[] {
      return pageByProject.all(projectId, take, skip).map(toJob);
    },
    /** The active job of the project working on `ref`, if any (two runs must not push to one branch). */
    activeOnRef(projectId: string, ref: string): AgentJobRecord | undefined {
      const r = activeOnRef.get(projectId, ref);
      return r && toJob(r);
    },
    /** Messages stored after `seq` (the v1 event stream follows a job with it). */
    messagesAfter(id: string, seq: number): AgentMessage[] {
      return messagesAfter.all(id, seq).map((r) => ({ seq: r.seq, turn: r.turn, role: r.role, body: JSON.parse(r.body) as Record<string, unknown>, createdAt: r.created_at }));
    },
    create: db.transaction((input: NewAgentJob): AgentJobRecord => {
      insertJob.run({ id: input.id, projectId: input.projectId, orgId: input.orgId, repository: input.repository, ref: input.ref, model: input.model, draft: input.draft ? 1 : 0, title: input.title ?? null, prLink: input.prLink ?? null, reviewers: input.reviewers?.length ? JSON.stringify(input.reviewers) : null, now: iso() });
      addMessage(input.id, 1, 'user', { role: 'user', content: input.prompt });
      return toJob(get.get(input.id)!);
    }),
    /**
     * A follow-up prompt. A completed or failed job goes back to active for the next turn; an
     * active job keeps running and takes the prompt up as soon as the current turn ends. Refused
     * ('full') when the stored conversation and the prompt would pass `maxBytes` (agent.maxTranscriptBytes).
     */
    followUp(id: string, projectId: string, prompt: string, maxBytes = Infinity): FollowUpResult {
      return db
        .transaction((): FollowUpResult => {
          const row = get.get(id);
          if (!row || row.project_id !== projectId) return { ok: false, reason: 'not_found' };
          const job = toJob(row);
          if (job.status === 'archived') return { ok: false, reason: 'archived' };
          const bytes = storedBytes.get(id)!.n + Buffer.byteLength(JSON.stringify({ role: 'user', content: prompt }), 'utf8');
          if (bytes > maxBytes) return { ok: false, reason: 'full', bytes };
          if (job.status === 'active') {
            addMessage(id, job.turn + 1, 'user', { role: 'user', content: prompt });
            return { ok: true, job };
          }
          const next: AgentJobRecord = { ...job, status: 'active', runState: 'queued', error: null, turn: job.turn + 1, attempts: 0, finishedAt: null };
          addMessage(id, next.turn, 'user', { role: 'user', content: prompt });
          write(next);
          return { ok: true, job: toJob(get.get(id)!) };
        })
        .immediate();
    },
    /** Active jobs (queued or running): of one organization, or of all. */
    countActive(orgId?: string): number {
      return (orgId === undefined ? active.get() : activeForOrg.get(orgId))!.n;
    },
    /** Take the oldest queued job for a runner (marks it running, counts the attempt). */
    claimNext(): AgentJobRecord | undefined {
      return db
        .transaction(() => {
          const row = nextQueued.get();
          if (!row) return undefined;
          const claimed = claim.get(iso(), row.id);
          return claimed && toJob(claimed);
        })
        .immediate();
    },
    /** JSON bytes the job's conversation takes in the database. */
    conversationBytes(id: string): number {
      return storedBytes.get(id)!.n;
    },
    /** The conversation of a run: every message up to and including `turn`. */
    conversation(id: string, turn: number): AgentMessage[] {
      return messagesUpTo.all(id, turn).map((r) => ({ seq: r.seq, turn: r.turn, role: r.role, body: JSON.parse(r.body) as Record<string, unknown>, createdAt: r.created_at }));
    },
    appendMessage(id: string, turn: number, role: AgentMessageRole, body: Record<string, unknown>): number {
      return db.transaction(() => addMessage(id, turn, role, body)).immediate();
    },
    complete(id: string, prLink: string | null, summary: string | null = null): AgentJobRecord {
      return db
        .transaction(() => {
          const job = toJob(get.get(id)!);
          const kept = summary && summary.length > MAX_SUMMARY_CHARS ? `${summary.slice(0, MAX_SUMMARY_CHARS - 1)}…` : summary;
          return settle(job, { status: 'completed', prLink, error: null, summary: kept });
        })
        .immediate();
    },
    /**
     * The turn failed: its model replies go (nothing of it reached the remote), a note with the
     * reason stays so a follow-up knows what happened.
     */
    fail(id: string, reason: string): AgentJobRecord {
      return db
        .transaction(() => {
          const job = toJob(get.get(id)!);
          dropTurnReplies.run(id, job.turn);
          addMessage(id, job.turn, 'assistant', { role: 'assistant', content: `This instruction failed and nothing was pushed: ${reason}` });
          return settle(job, { status: 'failed', prLink: job.prLink, error: reason, summary: job.summary });
        })
        .immediate();
    },
    /** Jobs a previous process was running when it stopped. */
    listRunning(): AgentJobRecord[] {
      return running.all().map(toJob);
    },
    /** Put an interrupted job back in the queue; the partial turn's replies are dropped (it re-runs from its prompt). */
    requeueInterrupted(id: string): AgentJobRecord {
      return db
        .transaction(() => {
          const job = toJob(get.get(id)!);
          dropTurnReplies.run(id, job.turn);
          write({ ...job, runState: 'queued' });
          return toJob(get.get(id)!);
        })
        .immediate();
    },
    archive(id: string): ArchiveResult {
      return db
        .transaction((): ArchiveResult => {
          const row = get.get(id);
          if (!row) return { ok: false, reason: 'not_found' };
          const job = toJob(row);
          if (job.status === 'archived') return { ok: false, reason: 'already_archived' };
          if (job.status === 'active') return { ok: false, reason: 'active' };
          write({ ...job, status: 'archived', archivedAt: iso() });
          dropArchivedConversations.run();
          return { ok: true, job: toJob(get.get(id)!) };
        })
        .immediate();
    },
    /** Archive completed and failed jobs that finished before the cutoff (cron). */
    archiveFinishedBefore(cutoff: Date): AgentJobRecord[] {
      return db
        .transaction(() => {
          const archived = archiveOld.all({ now: iso(), cutoff: cutoff.toISOString() }).map(toJob);
          if (archived.length) dropArchivedConversations.run();
          return archived;
        })
        .immediate();
    },
  };
}

export type AgentJobStore = ReturnType<typeof createAgentJobStore>;
