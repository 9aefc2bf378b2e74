import { redactUrl } from '../logger.js';
import { listVersions, readActive, writeActive } from '../loader/sites-dir.js';
import { openState, parse, println, UsageError, type Command } from './io.js';
import { projectVersions, rollbackProject } from '../publish/cli.js';

export const sitesCommand: Command = {
  summary: 'List the extracted site versions, or roll back to one of them',
  usage: 'docs-appliance sites list [--project <id>] [--json]\ndocs-appliance sites rollback <version> [--project <id>]',
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub === 'list') {
      const { values } = parse(rest, { json: { type: 'boolean', default: false }, project: { type: 'string' } }, false);
      const state = openState(values.config, io);
      try {
        if (values.project) {
          // A published project's own site (docs/publishing.md), not the single-site bundle.
          const { active, versions } = projectVersions(state.config.stateDir, values.project);
          if (values.json) println(io.stdout, JSON.stringify({ active, versions }));
          else if (versions.length === 0) println(io.stdout, 'No published versions yet.');
          else for (const v of versions) println(io.stdout, `${v.active ? '*' : ' '} ${v.version}  ${v.pageCount ?? '?'} pages, last activated ${v.lastActivated.toISOString()}`);
          return 0;
        }
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
      const { values, positionals } = parse(rest, { project: { type: 'string' } });
      const wanted = positionals[0];
      if (!wanted || positionals.length > 1) throw new UsageError('rollback takes exactly one version');
      const state = openState(values.config, io);
      try {
        if (values.project) {
          const done = rollbackProject(state, values.project, wanted);
          if (!done.ok) {
            println(io.stderr, `error: ${done.message}`);
            return 1;
          }
          println(io.stdout, `Project ${values.project} now serves ${done.version}. A running appliance switches on SIGHUP (kill -HUP <pid>) or restart.`);
          return 0;
        }
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
