import { openState, parse, println, UsageError, type Command } from '../commands/io.js';

/** `docs-appliance audit`: the console's audit log, newest first (docs/console.md). */
export const auditCommand: Command = {
  summary: 'List the audit log of changes made in the console',
  usage: 'docs-appliance audit [--org <orgId>] [--limit <n>] [--json]',
  async run(argv, io) {
    const args = parse(argv, { org: { type: 'string' }, limit: { type: 'string' }, json: { type: 'boolean', default: false } }, false);
    const v = args.values;
    const limit = v.limit === undefined ? 100 : Number(v.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1_000_000) throw new UsageError('--limit takes a whole number from 1 to 1000000');
    const state = openState(v.config, io);
    try {
      const entries = state.stores.consoleAudit.page({ orgId: v.org, limit, offset: 0 });
      if (v.json) println(io.stdout, JSON.stringify(entries));
      else if (entries.length === 0) println(io.stdout, 'No console changes recorded.');
      else {
        for (const e of entries) println(io.stdout, `${e.at}  ${e.orgId}  ${e.actor}  ${e.action}  ${e.target}${e.detail ? `  ${JSON.stringify(e.detail)}` : ''}`);
      }
      return 0;
    } finally {
      state.close();
    }
  },
};
