import type { AgentJobRecord } from '../../data/stores/agent-jobs.js';

/** The session of the deprecated v1 operations (admin-openapi.json, `GET /v1/agent/{projectId}/job/{id}`). */
export interface AgentSessionV1 {
  sessionId: string;
  subdomain: string;
  branch: string | null;
  haulted: boolean;
  haultReason: 'completed' | 'error' | 'processing';
  pullRequestLink?: string;
  messageToUser?: string;
  todos: never[];
  title?: string;
  createdAt: string;
}

/**
 * A job in the v1 shape (the published field names, typos included: `haulted`, `haultReason`).
 * `subdomain` is the project id (the appliance has no hosted subdomains); `todos` is empty (the
 * agent keeps no to-do list); fields the published schema does not allow to be null are left
 * out rather than null. A job is the same job through v1 and v2.
 */
export function toAgentSessionV1(job: AgentJobRecord): AgentSessionV1 {
  const active = job.status === 'active';
  const failed = !active && job.error !== null;
  const message = active ? undefined : failed ? `The job failed: ${job.error}` : (job.summary ?? (job.prLink ? 'The agent opened a pull request.' : 'The agent finished without changing a file.'));
  return {
    sessionId: job.id,
    subdomain: job.projectId,
    branch: job.ref,
    haulted: !active,
    haultReason: active ? 'processing' : failed ? 'error' : 'completed',
    ...(!active && job.prLink ? { pullRequestLink: job.prLink } : {}),
    ...(message ? { messageToUser: message } : {}),
    todos: [],
    ...(job.title ? { title: job.title } : {}),
    createdAt: job.createdAt,
  };
}
