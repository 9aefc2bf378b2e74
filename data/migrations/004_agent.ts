import type { Migration } from './index.js';

/**
 * Agent jobs (DESIGN 3.2) are their own durable queue: a job is `active` with `run_state`
 * `queued` until a runner claims it (`running`), and `running` rows found at start-up belong to a
 * process that died. The conversation (prompts, model replies, tool results) lives in
 * agent_messages so a follow-up continues it and a restart can re-run the interrupted turn.
 */
export const agentJobs: Migration = {
  id: 4,
  name: 'agent jobs and their conversations',
  up: `
    CREATE TABLE agent_jobs (
      id           TEXT PRIMARY KEY,
      project_id   TEXT NOT NULL REFERENCES projects(id),
      org_id       TEXT NOT NULL REFERENCES organizations(id),
      status       TEXT NOT NULL CHECK (status IN ('active', 'completed', 'failed', 'archived')),
      run_state    TEXT CHECK (run_state IN ('queued', 'running')),
      repository   TEXT NOT NULL,
      ref          TEXT NOT NULL,
      model        TEXT NOT NULL,
      pr_link      TEXT,
      error        TEXT,
      turn         INTEGER NOT NULL DEFAULT 1,
      attempts     INTEGER NOT NULL DEFAULT 0,
      created_at   TEXT NOT NULL,
      updated_at   TEXT NOT NULL,
      finished_at  TEXT,
      archived_at  TEXT,
      CHECK ((status = 'archived') = (archived_at IS NOT NULL)),
      CHECK ((status = 'active') = (run_state IS NOT NULL))
    ) STRICT;
    CREATE INDEX agent_jobs_queue ON agent_jobs(status, run_state, created_at);
    CREATE INDEX agent_jobs_project ON agent_jobs(project_id, created_at);

    CREATE TABLE agent_messages (
      job_id      TEXT NOT NULL REFERENCES agent_jobs(id) ON DELETE CASCADE,
      seq         INTEGER NOT NULL,
      turn        INTEGER NOT NULL,
      role        TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool')),
      body        TEXT NOT NULL,
      created_at  TEXT NOT NULL,
      PRIMARY KEY (job_id, seq)
    ) STRICT;
  `,
};
