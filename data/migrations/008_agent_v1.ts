import type { Migration } from './index.js';

/**
 * What the deprecated v1 agent operations need besides the v2 job (issue 17): `draft` (the
 * request's `asDraft`: open the pull request as a draft), `title` (the job's first instruction in
 * one line, the v1 view's `title`) and `summary` (the model's summary of its last finished turn,
 * the v1 view's `messageToUser`). Jobs created before this migration have no title or summary.
 */
export const agentV1: Migration = {
  id: 8,
  name: 'agent jobs: draft, title, summary (v1 operations)',
  up: `
    ALTER TABLE agent_jobs ADD COLUMN draft INTEGER NOT NULL DEFAULT 0 CHECK (draft IN (0, 1));
    ALTER TABLE agent_jobs ADD COLUMN title TEXT;
    ALTER TABLE agent_jobs ADD COLUMN summary TEXT;
  `,
};
