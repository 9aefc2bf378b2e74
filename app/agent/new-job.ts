import crypto from 'node:crypto';
import type { Config } from '../../config/schema.js';
import type { AgentJobRecord } from '../../data/stores/agent-jobs.js';
import type { Project } from '../../data/stores/projects.js';
import type { AppContext } from '../context.js';
import { errors } from '../errors.js';

/** Longest prompt accepted (v1: all messages together); the body limit (admin.maxBodyBytes) applies as well. */
export const MAX_PROMPT_CHARS = 100_000;

export const newJobId = () => `aj_${crypto.randomBytes(10).toString('hex')}`;
/** The branch a v2 job works on: unique per job, recognisable in the Git host's branch list. */
export const jobBranch = (jobId: string) => `docs-agent/${jobId.replace(/^aj_/, '')}`;

/** Why this appliance cannot run an agent job for this project, in words naming the config key. */
export function agentNotConfigured(config: Readonly<Config>, project: Project): string | undefined {
  const missing = [!config.agent.baseUrl && 'agent.baseUrl', !config.agent.model && 'agent.model'].filter(Boolean);
  if (missing.length) return `The agent is not configured on this appliance: set ${missing.join(' and ')} in the configuration`;
  if (!project.repository) return `The agent is not configured for project ${project.id}: set projects[].repository`;
  if (!project.gitHost) return `The agent is not configured for project ${project.id}: set projects[].gitHost to open pull requests`;
  return undefined;
}

/** Retry-After when too many agent jobs are active: about what one run takes to end. */
export const AGENT_QUEUE_FULL_RETRY_AFTER_S = 60;

/** A job that becomes active needs a place: per organization (agent.maxActiveJobsPerOrg) and in all (agent.maxActiveJobs). */
export function ensureRoom(ctx: AppContext, config: Readonly<Config>, orgId: string): void {
  const store = ctx.stores.agentJobs;
  const { maxActiveJobsPerOrg, maxActiveJobs } = config.agent;
  const mine = store.countActive(orgId);
  if (mine >= maxActiveJobsPerOrg) {
    throw errors.queueFull(`Your organization already has ${mine} active agent jobs, the most allowed (agent.maxActiveJobsPerOrg)`, AGENT_QUEUE_FULL_RETRY_AFTER_S);
  }
  const all = store.countActive();
  if (all >= maxActiveJobs) throw errors.queueFull(`The appliance already has ${all} active agent jobs, the most allowed (agent.maxActiveJobs)`, AGENT_QUEUE_FULL_RETRY_AFTER_S);
}

/** The job's title: its first instruction on one line. */
export function titleOf(prompt: string): string {
  const t = prompt.replace(/\s+/g, ' ').trim();
  return t.length > 80 ? `${t.slice(0, 79)}…` : t;
}

/**
 * Queue a job (v2 create and v1 create alike): 400 when the agent is not configured, 409 when
 * another active job of the project works on the same branch (two runs would push over each
 * other), 429 when the active jobs are at their bound, else the stored job, `active` and `queued`.
 */
export function startJob(
  ctx: AppContext,
  config: Readonly<Config>,
  project: Project,
  input: { id?: string; prompt: string; ref?: string; draft?: boolean; title?: string; prLink?: string | null; reviewers?: string[] },
): AgentJobRecord {
  const notConfigured = agentNotConfigured(config, project);
  if (notConfigured) throw errors.badRequest(notConfigured);
  const id = input.id ?? newJobId();
  const ref = input.ref ?? jobBranch(id);
  if (project.branch && ref === project.branch) {
    throw errors.badRequest(`Invalid body: branch: "${ref}" is the project's base branch (projects[].branch); the agent works on another branch and proposes it as a pull request`);
  }
  const busy = ctx.stores.agentJobs.activeOnRef(project.id, ref);
  if (busy) throw errors.conflict('BRANCH_IN_USE', `Agent job ${busy.id} is still working on the branch "${ref}"; wait until it leaves active, or name another branch`);
  ensureRoom(ctx, config, project.orgId);
  const job = ctx.stores.agentJobs.create({
    id,
    projectId: project.id,
    orgId: project.orgId,
    repository: project.repository!,
    ref,
    model: config.agent.model!,
    prompt: input.prompt,
    draft: input.draft ?? false,
    title: input.title ?? titleOf(input.prompt),
    prLink: input.prLink ?? null,
    ...(input.reviewers?.length ? { reviewers: input.reviewers } : {}),
  });
  ctx.log.info({ agentJob: id, projectId: project.id, ref, draft: job.draft, promptChars: input.prompt.length }, 'agent job created');
  return job;
}
