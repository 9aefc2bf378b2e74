import type { AutomationConfig } from '../../config/automations.js';
import type { Config } from '../../config/schema.js';
import type { AgentJobRecord } from '../../data/stores/agent-jobs.js';
import type { AutomationRunRecord, AutomationTrigger } from '../../data/stores/automation-runs.js';
import { newRunId } from '../../data/stores/automation-runs.js';
import type { Project } from '../../data/stores/projects.js';
import { createGitHostClient, GitHostError } from '../agent/git-host.js';
import { agentNotConfigured, ensureRoom, newJobId, startJob } from '../agent/new-job.js';
import type { AppContext } from '../context.js';
import { errors } from '../errors.js';
import { changeSources, changesLine, ContextUnavailableError, readContextChanges } from './changes.js';
import type { ExportReport } from './export-report.js';
import { runInstruction } from './instruction.js';
import { sourceAuthors } from './reviewers.js';

/** Reading the context repositories (fetch, log, diffstat) ends after this. */
export const CONTEXT_TIMEOUT_MS = 120_000;

/** The branch of a run that opens its own pull request: recognisable per automation, unique per run. */
export const runBranch = (automationId: string, runId: string) => `docs-automation/${automationId}/${runId.replace(/^run_/, '')}`;

/**
 * Start one run of an automation: the agent job that carries it out, with the instruction and
 * what changed in the context repositories since the last completed run. Nothing changed: the
 * run (and its job) ends `completed` at once with no pull request, saying so. `group` mode adds
 * to the automation's open pull request when there is one (its branch, its link). Throws the
 * catalogue's errors: 400 not configured, 409 a run still running, 429 no room or past
 * agent.rateLimitPerHour, 502 context unreadable.
 */
export function createRunStarter(ctx: AppContext, deps: { config(): Readonly<Config>; kick(): void; exportReport?: (projectId: string) => ExportReport | undefined }) {
  // Runs between their checks and their job (reading the context takes a while): one at a time per automation.
  const starting = new Map<string, string>();
  return async function startAutomationRun(project: Project, automation: AutomationConfig, trigger: AutomationTrigger, opts: { actor?: string } = {}): Promise<{ run: AutomationRunRecord; job: AgentJobRecord }> {
    const config = deps.config();
    const notConfigured = agentNotConfigured(config, project);
    if (notConfigured) throw errors.badRequest(notConfigured);
    const key = `${project.id}/${automation.id}`;
    const busy = starting.get(key) ?? ctx.stores.automationRuns.running(project.id, automation.id)?.id;
    if (busy) throw errors.automationRunning(busy);
    ensureRoom(ctx, config, project.orgId);
    const runId = newRunId();
    starting.set(key, runId);
    try {
      return await startRun(ctx, config, project, automation, trigger, { runId, actor: opts.actor, kick: deps.kick, report: automation.predefined === 'fix-broken-links' ? deps.exportReport?.(project.id) : undefined });
    } finally {
      starting.delete(key);
    }
  };
}

export type RunStarter = ReturnType<typeof createRunStarter>;

async function startRun(
  ctx: AppContext,
  config: Readonly<Config>,
  project: Project,
  automation: AutomationConfig,
  trigger: AutomationTrigger,
  opts: { runId: string; actor: string | undefined; kick(): void; report: ExportReport | undefined },
): Promise<{ run: AutomationRunRecord; job: AgentJobRecord }> {
  const runs = ctx.stores.automationRuns;
  const runId = opts.runId;
  const jobId = newJobId();
  const log = ctx.log.child({ automation: automation.id, projectId: project.id, automationRun: runId, trigger });
  const last = runs.lastCompleted(project.id, automation.id);
  let read: Awaited<ReturnType<typeof readContextChanges>>;
  try {
    read = await readContextChanges(config.stateDir, project, automation, last?.contextHeads ?? null, AbortSignal.timeout(CONTEXT_TIMEOUT_MS));
  } catch (err) {
    if (!(err instanceof ContextUnavailableError)) throw err;
    // Listed as a failed run (the console shows why); the next run compares with the last completed one.
    runs.create({ id: runId, projectId: project.id, automationId: automation.id, trigger, jobId: null, failed: true, changes: err.message, contextHeads: {}, actor: opts.actor ?? null });
    log.warn({ reason: err.message }, 'automation run failed: a context repository could not be read');
    throw errors.contextUnavailable(err.message);
  }
  const reported = opts.report?.brokenLinkCount ? `; ${opts.report.brokenLinkCount} broken link${opts.report.brokenLinkCount === 1 ? '' : 's'} reported by ${opts.report.source}` : '';
  const sources = changeSources(project, automation).length;
  const changes = `${changesLine(sources, read.changes)}${reported}`;
  const prompt = runInstruction(automation, sources, read.changes, opts.report);
  const title = automation.name;
  const nothingChanged = sources > 0 && read.changes.length === 0;
  // fix-broken-links without context repositories works from the last export's report: none reported, nothing to fix.
  const nothingReported = automation.predefined === 'fix-broken-links' && sources === 0 && opts.report !== undefined && opts.report.brokenLinkCount === 0;

  if (nothingChanged || nothingReported) {
    // Nothing to do: a job record all the same, so the job API answers for the run as for any other.
    const summary = nothingChanged
      ? `Nothing changed in the context repositories since the last completed run (${last?.id ?? 'none'}); no pull request was opened.`
      : `The last export (${opts.report!.source}) reported no broken links; no pull request was opened.`;
    const job = ctx.stores.agentJobs.create({ id: jobId, projectId: project.id, orgId: project.orgId, repository: project.repository!, ref: runBranch(automation.id, runId), model: config.agent.model!, prompt, title });
    const done = ctx.stores.agentJobs.complete(job.id, null, summary);
    const run = runs.create({ id: runId, projectId: project.id, automationId: automation.id, trigger, jobId, changes: nothingChanged ? changes : 'no broken links reported by the last export', contextHeads: read.heads, actor: opts.actor ?? null });
    log.info({ agentJob: jobId }, `automation run completed at once: ${summary}`);
    return { run, job: done };
  }

  let ref = runBranch(automation.id, runId);
  let prLink: string | null = null;
  if (automation.updateMode === 'group') {
    const grouped = await openPullRequestOf(ctx, project, automation);
    if (grouped) {
      ({ ref, prLink } = grouped);
      log.info({ ref, prLink }, 'automation run adds to the open pull request of the automation');
    }
  }
  // A run that reaches the model counts as an agent job created through the API (agent.rateLimitPerHour, per project).
  const limited = ctx.stores.rateLimits.hit(`agent:${project.id}`, config.agent.rateLimitPerHour, 3600_000);
  if (!limited.allowed) {
    log.warn({ limit: 'agent.rateLimitPerHour' }, 'automation run refused: the project has used its agent jobs for this hour');
    throw errors.rateLimited(limited.resetSeconds);
  }
  // A pull request this run opens asks the authors of the source changes to review it.
  const reviewers = prLink ? [] : await sourceAuthors(project, read.changes, log, AbortSignal.timeout(30_000));
  const job = startJob(ctx, config, project, { id: jobId, prompt, ref, title, prLink, reviewers });
  const run = runs.create({ id: runId, projectId: project.id, automationId: automation.id, trigger, jobId, changes, contextHeads: read.heads, actor: opts.actor ?? null });
  log.info({ agentJob: jobId, ref, changes, reviewers }, 'automation run started');
  opts.kick();
  return { run, job };
}

/** The automation's newest pull request, if the Git host still has it open (merged or closed: a new one is opened). */
async function openPullRequestOf(ctx: AppContext, project: Project, automation: AutomationConfig): Promise<{ ref: string; prLink: string } | undefined> {
  const last = ctx.stores.automationRuns.lastWithPullRequest(project.id, automation.id);
  if (!last?.ref || !project.gitHost || !project.repository) return undefined;
  const token = project.gitHost.tokenEnv ? process.env[project.gitHost.tokenEnv] : undefined;
  const host = createGitHostClient({ type: project.gitHost.type, apiUrl: project.gitHost.apiUrl, token });
  try {
    const open = await host.findOpenPullRequest(project.repository, last.ref, AbortSignal.timeout(30_000));
    return open ? { ref: last.ref, prLink: open } : undefined;
  } catch (err) {
    if (!(err instanceof GitHostError)) throw err;
    // Unsure whether it is open: a pull request of its own is safer than pushing to a closed one.
    ctx.log.warn({ automation: automation.id, err: err.message }, 'automation: cannot ask the Git host whether the grouped pull request is open; this run opens its own');
    return undefined;
  }
}
