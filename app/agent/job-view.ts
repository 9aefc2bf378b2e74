import type { AgentJobRecord, AgentJobStatus } from '../../data/stores/agent-jobs.js';

/** The AgentJob of the API (seed section 2). */
export interface AgentJob {
  id: string;
  status: AgentJobStatus;
  source: { repository: string; ref: string | null };
  model: string;
  prLink: string | null;
  createdAt: string;
  archivedAt: string | null;
}

/**
 * prLink is null while the job is active (DESIGN 3.2), even when an earlier turn opened the pull
 * request: clients poll until the job leaves `active` and read the link then.
 */
export function toAgentJob(job: AgentJobRecord): AgentJob {
  return {
    id: job.id,
    status: job.status,
    source: { repository: job.repository, ref: job.ref },
    model: job.model,
    prLink: job.status === 'active' ? null : job.prLink,
    createdAt: job.createdAt,
    archivedAt: job.status === 'archived' ? job.archivedAt : null,
  };
}
