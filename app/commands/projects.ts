import { openState, parse, println, UsageError, type Command } from './io.js';

export const projectsCommand: Command = {
  summary: 'List organizations and projects (ids to use in API paths)',
  usage: 'docs-appliance projects list [--json]',
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub !== 'list') throw new UsageError(`unknown projects subcommand "${sub ?? ''}"`);
    const { values } = parse(rest, { json: { type: 'boolean', default: false } }, false);
    const state = openState(values.config, io);
    try {
      const projects = state.stores.projects.list();
      if (values.json) println(io.stdout, JSON.stringify({ organizations: state.stores.organizations.list(), projects }));
      // Where the docs come from: the directory, or the repository of a project published from git only.
      else for (const p of projects) println(io.stdout, `${p.id}  org=${p.orgId}  domain=${p.domain}  ${p.name}  (${p.sourceDir ?? `git ${p.repository ?? '?'}`})`);
      return 0;
    } finally {
      state.close();
    }
  },
};
