import { Router } from 'express';
import type { AutomationConfig } from '../../../config/automations.js';
import type { AutomationRunRecord } from '../../../data/stores/automation-runs.js';
import type { Project } from '../../../data/stores/projects.js';
import type { AppContext } from '../../context.js';
import { errors } from '../../errors.js';
import { audit, actorOf } from '../audit.js';
import { requireWrite } from '../guards.js';
import { withNotice } from '../notices.js';
import type { ConsoleDeps } from '../router.js';
import { timeCell } from '../time.js';
import { arraySource, type TableSpec } from '../table.js';

/** Runs listed per automation on the project page (the newest). */
const RUNS_LISTED = 20;

const triggerText = (a: AutomationConfig): string =>
  a.trigger.type === 'schedule' ? `schedule (${a.trigger.cron})` : a.trigger.type === 'push' ? `push${a.trigger.repository ? ` to ${a.trigger.repository}` : ' to the project repository'}${a.trigger.branch ? ` (${a.trigger.branch})` : ''}` : 'API only';
const prCell = (link: string | null) => (link && /^https?:\/\//.test(link) ? { link, text: link } : link);

interface AutomationRow {
  automation: AutomationConfig;
  last: AutomationRunRecord | undefined;
}

/**
 * The project page's automations: one row per configured automation with its last run and, for
 * the write role, "Run now"; and the recent runs of all of them (status, pull request, what
 * changed, the agent job's transcript). Null when the automations service is not wired in.
 */
export function automationTables(ctx: AppContext, deps: ConsoleDeps, project: Project, base: string, write: boolean, now: Date): { automations: TableSpec<AutomationRow>; runs: TableSpec<AutomationRunRecord> } | null {
  if (!deps.automations) return null;
  const configured = deps.automations.configured(project);
  const byId = new Map(configured.map((a) => [a.id, a]));
  const runs = configured.flatMap((a) => ctx.stores.automationRuns.recent(project.id, a.id, RUNS_LISTED));
  const rows = configured.map((automation) => ({ automation, last: runs.find((r) => r.automationId === automation.id) }));
  return {
    automations: {
      id: 'automations',
      caption: 'Automations',
      empty: 'No automations. They are declared in the configuration (projects[].automations, docs/automations.md).',
      defaultSort: 'name',
      defaultDir: 'asc',
      pageSize: 20,
      source: arraySource(rows),
      columns: [
        { key: 'name', label: 'Automation', value: (r) => r.automation.name },
        { key: 'id', label: 'Id', value: (r) => r.automation.id, cell: (r) => ({ code: r.automation.id }) },
        { key: 'trigger', label: 'Trigger', value: (r) => triggerText(r.automation) },
        { key: 'mode', label: 'Update mode', value: (r) => (r.automation.enabled ? r.automation.updateMode : `${r.automation.updateMode} (disabled)`) },
        { key: 'status', label: 'Last run', value: (r) => r.last?.status ?? null },
        { key: 'started', label: 'Started', value: (r) => r.last?.createdAt ?? null, cell: (r) => (r.last ? timeCell(r.last.createdAt, now) : null) },
        { key: 'pr', label: 'Pull request', value: (r) => r.last?.prLink ?? null, cell: (r) => prCell(r.last?.prLink ?? null) },
        { key: 'changes', label: 'What changed', value: (r) => r.last?.changes ?? null },
        ...(write
          ? [
              {
                key: 'run',
                label: 'Run now',
                csv: false,
                sortable: false,
                value: () => null,
                cell: (r: AutomationRow) => (r.automation.enabled ? { action: `${base}/automations/${encodeURIComponent(r.automation.id)}/run`, text: 'Run now', label: `Run ${r.automation.name} now` } : null),
              },
            ]
          : []),
      ],
    },
    runs: {
      id: 'automation-runs',
      caption: 'Automation runs',
      empty: 'No runs yet: a schedule, a push, the trigger API (POST /v1/workflow/{projectId}/{automationId}/trigger) or “Run now” starts one.',
      defaultSort: 'started',
      defaultDir: 'desc',
      pageSize: 10,
      source: arraySource(runs),
      columns: [
        { key: 'id', label: 'Run', value: (r) => r.id, cell: (r) => ({ code: r.id }) },
        { key: 'automation', label: 'Automation', value: (r) => byId.get(r.automationId)?.name ?? r.automationId },
        { key: 'trigger', label: 'Trigger', value: (r) => (r.actor ? `${r.trigger} (${r.actor})` : r.trigger) },
        { key: 'status', label: 'Status', value: (r) => r.status },
        { key: 'started', label: 'Started', value: (r) => r.createdAt, cell: (r) => timeCell(r.createdAt, now) },
        { key: 'finished', label: 'Finished', value: (r) => r.finishedAt, cell: (r) => timeCell(r.finishedAt, now) },
        { key: 'pr', label: 'Pull request', value: (r) => r.prLink, cell: (r) => prCell(r.prLink) },
        { key: 'changes', label: 'What changed', value: (r) => r.changes },
        { key: 'job', label: 'Agent job', value: (r) => r.jobId, cell: (r) => (r.jobId ? { link: `${base}/agent/${r.jobId}`, text: r.jobId } : null) },
      ],
    },
  };
}

/** "Run now": the write role, the same checks as the API trigger, an audit entry naming the run. */
export function createAutomationActionsRouter(ctx: AppContext, deps: ConsoleDeps, baseOf: (orgId: string, projectId: string) => string): Router {
  const router = Router({ mergeParams: true });
  router.post('/automations/:automationId/run', requireWrite(), async (req, res) => {
    const { org, project } = res.locals;
    const automation = deps.automations?.configured(project).find((a) => a.id === String(req.params.automationId));
    if (!deps.automations || !automation) throw errors.automationNotFound();
    if (!automation.enabled) throw errors.automationNotTriggerable(`Automation ${automation.id} is not active (projects[].automations[].enabled is false)`);
    const { run, job } = await deps.automations.runNow(project, automation, actorOf(req));
    audit(ctx.stores, ctx.log, req, org.id, 'automation.run', run.id, { projectId: project.id, automationId: automation.id, jobId: job.id });
    res.redirect(303, withNotice(baseOf(org.id, project.id), 'automation-started'));
  });
  return router;
}
