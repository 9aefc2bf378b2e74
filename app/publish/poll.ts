import type { Config } from '../../config/schema.js';
import type { PublishStore } from '../../data/stores/publishes.js';
import type { AppContext } from '../context.js';
import { remoteHead } from './checkout.js';
import type { PublishService } from './service.js';

const SEEN_KEY = (projectId: string) => `publish.${projectId}.polledHead`;

/**
 * The cron poll for Git hosts that cannot call back: `git ls-remote` of each git-sourced
 * project's branch (no fetch), and a publish when the head differs from the last head this
 * poll acted on and from the commit last published. A failing remote is logged and skipped.
 */
export async function pollBranchHeads(ctx: AppContext, deps: { service: PublishService; store: PublishStore; config: Readonly<Config> }): Promise<{ checked: number; triggered: number }> {
  let checked = 0;
  let triggered = 0;
  for (const declared of deps.config.projects) {
    if (declared.publish?.source !== 'git' || declared.publish.poll === false) continue;
    const project = ctx.stores.projects.get(declared.id);
    if (!project?.repository) continue;
    const branch = project.branch ?? 'main';
    let head: string | undefined;
    try {
      head = await remoteHead(project, branch, AbortSignal.timeout(60_000));
    } catch (err) {
      ctx.log.warn({ projectId: project.id, err: (err as Error).message }, 'publish poll: cannot read the branch head; tried again at the next poll');
      continue;
    }
    checked += 1;
    if (!head || head === ctx.stores.settings.get(SEEN_KEY(project.id))) continue;
    ctx.stores.settings.set(SEEN_KEY(project.id), head);
    if (deps.store.lastSuccess(project.id)?.commitSha === head) continue;
    const record = deps.service.publish(project.id, 'poll');
    ctx.log.info({ projectId: project.id, head, statusId: record.id }, 'publish poll: the branch moved; publishing');
    triggered += 1;
  }
  return { checked, triggered };
}
