import type { Migration } from './index.js';

/**
 * Automation runs (issue 42): one row per run of a configured automation (projects[].automations).
 * A run that reached the agent points at its agent job, whose state is the run's; `status` is the
 * run's own only for a run that never made a job (its context repositories could not be read).
 * `context_heads` is a JSON object: context repository URL → the commit the run saw, so the next
 * run lists what changed since the last completed one. `agent_jobs.reviewers` (JSON array of Git
 * host user names, NULL for none) is requested on the pull request a job opens: an automation's
 * run asks the authors of the source changes.
 */
export const automations: Migration = {
  id: 17,
  name: 'automation runs; agent job reviewers',
  up: `
    CREATE TABLE automation_runs (
      id             TEXT PRIMARY KEY,
      project_id     TEXT NOT NULL,
      automation_id  TEXT NOT NULL,
      trigger        TEXT NOT NULL CHECK (trigger IN ('schedule', 'push', 'api', 'console')),
      job_id         TEXT,
      status         TEXT NOT NULL CHECK (status IN ('started', 'completed', 'failed')),
      changes        TEXT NOT NULL,
      context_heads  TEXT NOT NULL,
      actor          TEXT,
      created_at     TEXT NOT NULL,
      finished_at    TEXT
    ) STRICT;
    CREATE INDEX automation_runs_automation ON automation_runs(project_id, automation_id, created_at);
    ALTER TABLE agent_jobs ADD COLUMN reviewers TEXT;
  `,
};
