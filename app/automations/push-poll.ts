import type { AutomationConfig } from '../../config/automations.js';
import type { Config } from '../../config/schema.js';
import type { Project } from '../../data/stores/projects.js';
import type { AppContext } from '../context.js';
import { ApiError } from '../errors.js';
import { contextGit } from './changes.js';
import type { RunStarter } from './start-run.js';

const SEEN_KEY = (projectId: string, automationId: string) => `automation.${projectId}.${automationId}.pushHead`;

/** The repository and branch a push automation watches: a context repository's, or the project's own. */
export function watched(project: Project, automation: AutomationConfig): { url: string; branch: string | null } | undefined {
  if (automation.trigger.type !== 'push') return undefined;
  const { repository, branch } = automation.trigger;
  if (repository) return { url: repository, branch: branch ?? automation.contextRepositories.find((r) => r.url === repository)?.branch ?? null };
  if (!project.repository) return undefined;
  return { url: project.repository, branch: branch ?? project.branch };
}

/**
 * The cron poll of push automations, on the publish poller's pattern: `git ls-remote` of the
 * watched branch (no fetch) and a run when its head moved since the last poll. The first head
 * seen is only recorded (adding an automation or restarting starts nothing). A remote that
 * cannot be read is logged and tried again at the next poll; a run that cannot start (one still
 * running, no room) leaves the head unrecorded, so the next poll tries again.
 */
export async function pollPushAutomations(ctx: AppContext, deps: { config: Readonly<Config>; start: RunStarter }): Promise<{ checked: number; triggered: number }> {
  let checked = 0;
  let triggered = 0;
  for (const declared of deps.config.projects) {
    const project = ctx.stores.projects.get(declared.id);
    if (!project) continue;
    for (const automation of declared.automations) {
      const target = automation.enabled ? watched(project, automation) : undefined;
      if (!target) continue;
      const log = ctx.log.child({ automation: automation.id, projectId: project.id });
      let head: string | undefined;
      try {
        head = await remoteHead(project, target.url, target.branch);
      } catch (err) {
        log.warn({ repository: target.url, err: (err as Error).message }, 'automation push poll: cannot read the branch head; tried again at the next poll');
        continue;
      }
      checked += 1;
      const key = SEEN_KEY(project.id, automation.id);
      const seen = ctx.stores.settings.get(key);
      if (!head || head === seen) continue;
      if (seen === undefined) {
        ctx.stores.settings.set(key, head);
        log.info({ repository: target.url, head }, 'automation push poll: watching the branch from its current head');
        continue;
      }
      try {
        const { run } = await deps.start(project, automation, 'push');
        ctx.stores.settings.set(key, head);
        log.info({ repository: target.url, head, automationRun: run.id }, 'automation push poll: the branch moved; run started');
        triggered += 1;
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        log.warn({ repository: target.url, head, reason: err.message }, 'automation push poll: the branch moved but no run could start; tried again at the next poll');
      }
    }
  }
  return { checked, triggered };
}

async function remoteHead(project: Project, url: string, branch: string | null): Promise<string | undefined> {
  const git = contextGit(project, url, AbortSignal.timeout(60_000));
  const ref = branch ? `refs/heads/${branch}` : 'HEAD';
  const out = await git.run(['ls-remote', '--', url, ref], undefined, url);
  return out.split('\n').find((l) => l.endsWith(`\t${ref}`))?.split('\t')[0];
}
