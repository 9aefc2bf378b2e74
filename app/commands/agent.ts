import type { AgentJobRecord } from '../../data/stores/agent-jobs.js';
import { openState, parse, println, UsageError, type Command } from './io.js';

const line = (j: AgentJobRecord) =>
  `${j.id}  ${j.status.padEnd(9)}  project=${j.projectId}  ref=${j.ref}  created=${j.createdAt}${j.prLink ? `  pr=${j.prLink}` : ''}${j.status !== 'active' && j.error ? `  reason: ${j.error}` : ''}`;

/** Operator commands for agent jobs; they work beside a running server (same database). */
export const agentCommand: Command = {
  summary: 'List agent jobs, show one, archive a completed or failed job',
  usage: `docs-appliance agent list [--project <projectId>] [--json]
docs-appliance agent show <jobId> [--json]
docs-appliance agent archive <jobId> [--json]`,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    const args = parse(rest, { project: { type: 'string' }, json: { type: 'boolean', default: false } });
    const v = args.values;
    if (sub !== 'list' && sub !== 'show' && sub !== 'archive') throw new UsageError(`unknown agent subcommand "${sub ?? ''}"`);
    const id = args.positionals[0];
    if (sub !== 'list' && !id) throw new UsageError(`agent ${sub} needs a job id`);
    const state = openState(v.config, io);
    try {
      const jobs = state.stores.agentJobs;
      if (sub === 'list') {
        const list = jobs.list(v.project);
        if (v.json) println(io.stdout, JSON.stringify(list));
        else if (list.length === 0) println(io.stdout, 'No agent jobs.');
        else for (const j of list) println(io.stdout, line(j));
        return 0;
      }
      const job = jobs.get(id!);
      if (!job) {
        println(io.stderr, `error: no agent job ${id}`);
        return 1;
      }
      if (sub === 'show') {
        if (v.json) println(io.stdout, JSON.stringify(job));
        else println(io.stdout, line(job));
        return 0;
      }
      const result = jobs.archive(job.id);
      if (!result.ok) {
        if (result.reason === 'already_archived') {
          println(io.stdout, v.json ? JSON.stringify(job) : `${job.id} was already archived (${job.archivedAt}).`);
          return 0;
        }
        println(io.stderr, `error: ${job.id} is active; only completed or failed jobs can be archived`);
        return 1;
      }
      println(io.stdout, v.json ? JSON.stringify(result.job) : `Archived ${job.id} (was ${job.status}).`);
      return 0;
    } finally {
      state.close();
    }
  },
};
