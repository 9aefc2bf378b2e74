import { redactUrl } from '../logger.js';
import { listVersions, readActive, writeActive } from '../loader/sites-dir.js';
import { openState, parse, println, UsageError, type Command } from './io.js';

export const sitesCommand: Command = {
  summary: 'List the extracted site versions, or roll back to one of them',
  usage: 'docs-appliance sites list [--json]\ndocs-appliance sites rollback <version>',
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub === 'list') {
      const { values } = parse(rest, { json: { type: 'boolean', default: false } }, false);
      const state = openState(values.config, io);
      try {
        const active = readActive(state.config.stateDir, state.stores.settings);
        const versions = listVersions(state.config.stateDir).map((v) => ({ ...v, active: v.dir === active?.dir }));
        if (values.json) {
          println(io.stdout, JSON.stringify({ active: active ?? null, versions }));
          return 0;
        }
        if (active?.mounted) println(io.stdout, `* ${active.version}  (mounted directory ${active.dir})`);
        if (versions.length === 0 && !active) println(io.stdout, 'No site versions yet.');
        for (const v of versions) {
          const details = [v.createdAt ? `created ${v.createdAt}` : '', v.pageCount !== null ? `${v.pageCount} pages` : '', `last activated ${v.lastActivated.toISOString()}`].filter(Boolean).join(', ');
          println(io.stdout, `${v.active ? '*' : ' '} ${v.version}  ${details}`);
        }
        return 0;
      } finally {
        state.close();
      }
    }
    if (sub === 'rollback') {
      const { values, positionals } = parse(rest, {});
      const wanted = positionals[0];
      if (!wanted || positionals.length > 1) throw new UsageError('rollback takes exactly one version');
      const state = openState(values.config, io);
      try {
        const versions = listVersions(state.config.stateDir);
        const target = versions.find((v) => v.version === wanted) ?? versions.find((v) => v.name === wanted);
        if (!target) {
          println(io.stderr, `error: no extracted version "${wanted}". Available: ${versions.map((v) => v.version).join(', ') || 'none'}`);
          return 1;
        }
        const se = state.config.staticExport;
        writeActive(
          state.config.stateDir,
          {
            version: target.version,
            dir: target.dir,
            projectId: target.projectId,
            mounted: false,
            source: `rollback (${se.bundleUrl ? redactUrl(se.bundleUrl) : 'no bundleUrl'})`,
            activatedAt: new Date().toISOString(),
            // Kept until the operator changes staticExport: a reload with the same source would
            // otherwise fetch and activate the version just rolled back from.
            rollback: { bundleUrl: se.bundleUrl ?? null, version: se.version ?? null },
          },
          state.stores.settings,
        );
        println(io.stdout, `Active site is now ${target.version}. A running appliance switches on SIGHUP (kill -HUP <pid>) or restart.`);
        println(io.stdout, 'It stays active until staticExport.bundleUrl or staticExport.version changes.');
        return 0;
      } finally {
        state.close();
      }
    }
    throw new UsageError(`unknown sites subcommand "${sub ?? ''}"`);
  },
};
