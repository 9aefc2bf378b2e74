import crypto from 'node:crypto';
import type { Db } from '../db.js';

export const AUTOMATION_TRIGGERS = ['schedule', 'push', 'api', 'console'] as const;
export type AutomationTrigger = (typeof AUTOMATION_TRIGGERS)[number];
/** A run's state as the API and console show it: its agent job's, or its own when it made none. */
export const AUTOMATION_RUN_STATUSES = ['running', 'completed', 'failed'] as const;
export type AutomationRunStatus = (typeof AUTOMATION_RUN_STATUSES)[number];

export interface AutomationRunRecord {
  /** The hosted `instanceId`. */
  id: string;
  projectId: string;
  automationId: string;
  trigger: AutomationTrigger;
  jobId: string | null;
  status: AutomationRunStatus;
  /** What changed in the context repositories (one line), or why the run failed before the agent. */
  changes: string;
  /** Context repository URL → the commit this run saw. */
  contextHeads: Record<string, string>;
  /** Who started a console run (audit); null otherwise. */
  actor: string | null;
  /** The agent job's pull request, once it has one. */
  prLink: string | null;
  /** The agent job's branch. */
  ref: string | null;
  createdAt: string;
  finishedAt: string | null;
}

interface Row {
  id: string;
  project_id: string;
  automation_id: string;
  trigger: AutomationTrigger;
  job_id: string | null;
  status: 'started' | 'completed' | 'failed';
  changes: string;
  context_heads: string;
  actor: string | null;
  created_at: string;
  finished_at: string | null;
  job_status: string | null;
  job_error: string | null;
  job_pr_link: string | null;
  job_ref: string | null;
  job_finished_at: string | null;
}

export const newRunId = () => `run_${crypto.randomBytes(10).toString('hex')}`;

function effectiveStatus(r: Row): AutomationRunStatus {
  if (!r.job_id || r.job_status === null) return r.status === 'started' ? 'running' : r.status;
  if (r.job_status === 'active') return 'running';
  if (r.job_status === 'failed' || (r.job_status === 'archived' && r.job_error !== null)) return 'failed';
  return 'completed';
}

const toRun = (r: Row): AutomationRunRecord => ({
  id: r.id,
  projectId: r.project_id,
  automationId: r.automation_id,
  trigger: r.trigger,
  jobId: r.job_id,
  status: effectiveStatus(r),
  changes: r.changes,
  contextHeads: JSON.parse(r.context_heads) as Record<string, string>,
  actor: r.actor,
  prLink: r.job_status === 'active' ? null : r.job_pr_link,
  ref: r.job_ref,
  createdAt: r.created_at,
  finishedAt: r.job_id ? (r.job_status === 'active' ? null : r.job_finished_at) : r.finished_at,
});

const SELECT = `SELECT r.*, j.status AS job_status, j.error AS job_error, j.pr_link AS job_pr_link, j.ref AS job_ref, j.finished_at AS job_finished_at
  FROM automation_runs r LEFT JOIN agent_jobs j ON j.id = r.job_id`;

/** Runs of automations (migration 17); their state comes from their agent jobs. */
export function createAutomationRunStore(db: Db, now: () => Date) {
  const insert = db.prepare(
    `INSERT INTO automation_runs (id, project_id, automation_id, trigger, job_id, status, changes, context_heads, actor, created_at, finished_at)
     VALUES (@id, @projectId, @automationId, @trigger, @jobId, @status, @changes, @contextHeads, @actor, @now, @finishedAt)`,
  );
  const get = db.prepare<[string], Row>(`${SELECT} WHERE r.id = ?`);
  const recent = db.prepare<[string, string, number], Row>(`${SELECT} WHERE r.project_id = ? AND r.automation_id = ? ORDER BY r.created_at DESC, r.rowid DESC LIMIT ?`);
  const all = db.prepare<[string, string], Row>(`${SELECT} WHERE r.project_id = ? AND r.automation_id = ? ORDER BY r.created_at DESC, r.rowid DESC`);

  return {
    create(input: { id?: string; projectId: string; automationId: string; trigger: AutomationTrigger; jobId: string | null; failed?: boolean; changes: string; contextHeads: Record<string, string>; actor?: string | null }): AutomationRunRecord {
      const id = input.id ?? newRunId();
      const failed = input.failed === true;
      insert.run({
        id,
        projectId: input.projectId,
        automationId: input.automationId,
        trigger: input.trigger,
        jobId: input.jobId,
        status: failed ? 'failed' : input.jobId ? 'started' : 'completed',
        changes: input.changes,
        contextHeads: JSON.stringify(input.contextHeads),
        actor: input.actor ?? null,
        now: now().toISOString(),
        finishedAt: input.jobId ? null : now().toISOString(),
      });
      return toRun(get.get(id)!);
    },
    get(id: string): AutomationRunRecord | undefined {
      const r = get.get(id);
      return r && toRun(r);
    },
    /** The newest runs of one automation, newest first. */
    recent(projectId: string, automationId: string, limit = 10): AutomationRunRecord[] {
      return recent.all(projectId, automationId, limit).map(toRun);
    },
    /** The newest completed run: the next run lists what changed since the heads it saw. */
    lastCompleted(projectId: string, automationId: string): AutomationRunRecord | undefined {
      for (const r of all.iterate(projectId, automationId)) {
        const run = toRun(r);
        if (run.status === 'completed') return run;
      }
      return undefined;
    },
    /** The newest run whose job opened a pull request (grouping adds to it while it is open). */
    lastWithPullRequest(projectId: string, automationId: string): AutomationRunRecord | undefined {
      for (const r of all.iterate(projectId, automationId)) {
        const run = toRun(r);
        if (run.prLink) return run;
      }
      return undefined;
    },
    /** A run of this automation still working (a schedule tick does not start a second one). */
    running(projectId: string, automationId: string): AutomationRunRecord | undefined {
      for (const r of all.iterate(projectId, automationId)) {
        const run = toRun(r);
        if (run.status === 'running') return run;
      }
      return undefined;
    },
  };
}

export type AutomationRunStore = ReturnType<typeof createAutomationRunStore>;
