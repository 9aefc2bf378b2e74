import type { Config } from '../../config/schema.js';
import type { AppContext } from '../context.js';
import type { Feature } from '../feature.js';
import { createAgentQueue } from './job-queue.js';
import { createAgentRouter } from './routes.js';
import type { WorkerEntry } from './worker-host.js';

/**
 * Agent jobs (DESIGN 3.2): the routes, the durable queue with its runner threads, and the
 * archive policy. See docs/agent.md.
 */
export interface AgentFeature extends Feature {
  /** Wake the queue: a job was queued by another feature (automations). */
  kick(): void;
}

export function createAgentFeature(ctx: AppContext, deps: { workerEntry?: WorkerEntry } = {}): AgentFeature {
  let config: Readonly<Config> = ctx.config;
  const queue = createAgentQueue(ctx, { config: () => config, ...(deps.workerEntry ? { workerEntry: deps.workerEntry } : {}) });
  return {
    name: 'agent',
    adminRouter: createAgentRouter(ctx, { config: () => config, kick: () => queue.kick() }),
    cron: [
      {
        // Completed and failed jobs older than agent.archiveAfterDays leave the active lists.
        name: 'agent-archive',
        schedule: '41 * * * *',
        run: () => archiveExpired(ctx, config),
      },
    ],
    ready: () => ({ ok: true, critical: false, detail: config.agent.baseUrl && config.agent.model ? `${queue.runningCount()} running` : 'not configured (agent.baseUrl, agent.model)' }),
    start: () => queue.start(),
    reload: (next) => {
      config = next;
      queue.kick();
    },
    stop: () => queue.stop(),
    kick: () => queue.kick(),
  };
}

/** The archive policy: completed and failed jobs finished more than archiveAfterDays ago. */
export function archiveExpired(ctx: AppContext, config: Readonly<Config>): { archived: number } {
  const cutoff = new Date(ctx.clock.now().getTime() - config.agent.archiveAfterDays * 86_400_000);
  const archived = ctx.stores.agentJobs.archiveFinishedBefore(cutoff);
  for (const job of archived) ctx.log.info({ agentJob: job.id, previously: job.error ? 'failed' : 'completed' }, 'agent job archived by the retention policy');
  return { archived: archived.length };
}
