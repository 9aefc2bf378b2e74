import { createPageFeedbackStore, FEEDBACK_SOURCES, FEEDBACK_STATUSES, type FeedbackSource, type FeedbackStatus } from '../../data/stores/page-feedback.js';
import { openState, parse, println, UsageError, type Command } from './io.js';

/** Reader feedback on the state directory, like `keys`: list it and set its review status. */
export const feedbackCommand: Command = {
  summary: 'List readers’ page feedback and set its status (pending, in_progress, resolved, dismissed)',
  usage: `docs-appliance feedback list <projectId> [--status pending,in_progress] [--source contextual] [--limit 50] [--json]
docs-appliance feedback set-status <projectId> <feedbackId> <pending|in_progress|resolved|dismissed> [--json]`,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    const args = parse(rest, { status: { type: 'string' }, source: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean', default: false } });
    const v = args.values;
    const [projectId, id, status] = args.positionals;
    if (!projectId) throw new UsageError(`feedback ${sub ?? ''} needs a project id`);
    const state = openState(v.config, io);
    try {
      if (!state.stores.projects.get(projectId)) {
        println(io.stderr, `error: no project "${projectId}"`);
        return 1;
      }
      const store = createPageFeedbackStore(state.db);
      if (sub === 'list') {
        const statuses = v.status ? v.status.split(',').map((s) => s.trim()) : null;
        if (statuses?.some((s) => !(FEEDBACK_STATUSES as readonly string[]).includes(s))) throw new UsageError(`--status: one or more of ${FEEDBACK_STATUSES.join(', ')}`);
        if (v.source && !(FEEDBACK_SOURCES as readonly string[]).includes(v.source)) throw new UsageError(`--source: one of ${FEEDBACK_SOURCES.join(', ')}`);
        const limit = v.limit === undefined ? 50 : Number(v.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError('--limit: an integer from 1 to 1000');
        const page = store.list(projectId, { fromMs: null, toMs: null, sources: v.source ? [v.source as FeedbackSource] : null, statuses: statuses as FeedbackStatus[] | null }, limit);
        if (v.json) println(io.stdout, JSON.stringify(page.rows));
        else
          for (const f of page.rows) {
            const rating = f.helpful === null ? '' : f.helpful ? ' 👍' : ' 👎';
            println(io.stdout, `${f.id}  ${new Date(f.createdAtMs).toISOString()}  ${f.status.padEnd(11)}  ${f.source.padEnd(12)}  ${f.path}${rating}${f.comment ? `  ${JSON.stringify(f.comment.slice(0, 80))}` : ''}`);
          }
        return 0;
      }
      if (sub === 'set-status') {
        if (!id || !status) throw new UsageError('feedback set-status needs <projectId> <feedbackId> <status>');
        if (!(FEEDBACK_STATUSES as readonly string[]).includes(status)) throw new UsageError(`status must be one of ${FEEDBACK_STATUSES.join(', ')}`);
        const updated = store.setStatus(projectId, id, status as FeedbackStatus, Date.now());
        if (!updated) {
          println(io.stderr, `error: no feedback ${id} in project ${projectId}`);
          return 1;
        }
        if (v.json) println(io.stdout, JSON.stringify({ id, status: updated.status }));
        else println(io.stdout, `Feedback ${id} is now ${updated.status}.`);
        return 0;
      }
      throw new UsageError(`unknown feedback subcommand "${sub ?? ''}"`);
    } finally {
      state.close();
    }
  },
};
