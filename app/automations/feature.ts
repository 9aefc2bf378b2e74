import type { AutomationConfig } from '../../config/automations.js';
import type { Config } from '../../config/schema.js';
import type { AppContext } from '../context.js';
import type { CronJob } from '../cron.js';
import { ApiError } from '../errors.js';
import type { Feature } from '../feature.js';
import type { ExportReport } from './export-report.js';
import { pollPushAutomations } from './push-poll.js';
import { automationOf, createAutomationRouter } from './routes.js';
import { createRunStarter, type RunStarter } from './start-run.js';

export interface AutomationsFeature extends Feature {
  /** Start a run now (the console's "Run now" and the schedules use this, as the API trigger does). */
  runNow: RunStarter;
  /** The project's automations in the config of now (SIGHUP may replace it). */
  configured(projectId: string): readonly AutomationConfig[];
}

/** The cron job name of a scheduled automation. */
export const scheduleJobName = (projectId: string, automationId: string) => `automation-${projectId}-${automationId}`;

/**
 * Automations (issue 42, docs/automations.md): the agent run on a schedule (one cron job per
 * scheduled automation, from the config at start), on a push (the push poll) or through
 * `POST /v1/workflow/{projectId}/{workflowSchemaId}/trigger`. A run is an agent job of the agent
 * feature's queue (`kick` wakes it).
 */
export function createAutomationsFeature(ctx: AppContext, deps: { kick(): void; exportReport?: (projectId: string) => ExportReport | undefined }): AutomationsFeature {
  let config: Readonly<Config> = ctx.config;
  const start = createRunStarter(ctx, { config: () => config, kick: deps.kick, ...(deps.exportReport ? { exportReport: deps.exportReport } : {}) });
  const schedules: CronJob[] = ctx.config.projects.flatMap((p) =>
    p.automations.flatMap((a) =>
      a.trigger.type === 'schedule'
        ? [{ name: scheduleJobName(p.id, a.id), schedule: a.trigger.cron, run: () => scheduledRun(p.id, a.id) }]
        : [],
    ),
  );

  async function scheduledRun(projectId: string, automationId: string): Promise<unknown> {
    // The config of now: a SIGHUP may have disabled or removed it (a changed schedule needs a restart).
    const automation = automationOf(config, projectId, automationId);
    const project = ctx.stores.projects.get(projectId);
    if (!automation || !project || !automation.enabled || automation.trigger.type !== 'schedule') return { skipped: 'not configured or disabled' };
    try {
      const { run, job } = await start(project, automation, 'schedule');
      return { run: run.id, job: job.id, status: run.status };
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      ctx.log.warn({ automation: automationId, projectId, reason: err.message }, 'scheduled automation run not started');
      return { skipped: err.message };
    }
  }

  return {
    name: 'automations',
    adminRouter: createAutomationRouter(ctx, { config: () => config, start }),
    cron: [
      ...schedules,
      { name: 'automations-push-poll', schedule: ctx.config.publish.pollSchedule, run: () => pollPushAutomations(ctx, { config, start }) },
    ],
    ready: () => ({ ok: true, critical: false, detail: `${config.projects.reduce((n, p) => n + p.automations.length, 0)} configured` }),
    reload: (next) => {
      config = next;
    },
    runNow: start,
    configured: (projectId) => config.projects.find((p) => p.id === projectId)?.automations ?? [],
  };
}
