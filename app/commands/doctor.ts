import fs from 'node:fs';
import { exampleDocsDir } from '../paths.js';
import { openState, parse, println, type Command } from './io.js';

/** What an operator checks first when something is off: config, state dir, database, tenants. */
export const doctorCommand: Command = {
  summary: 'Check the configuration, state directory and database',
  usage: 'docs-appliance doctor [--config <file>] [--json]',
  async run(argv, io) {
    const { values } = parse(argv, { json: { type: 'boolean', default: false } }, false);
    const checks: { name: string; ok: boolean; detail: string }[] = [];
    let state: ReturnType<typeof openState> | undefined;
    try {
      state = openState(values.config, io);
      checks.push({ name: 'config', ok: true, detail: values.config ?? io.env.DOCS_APPLIANCE_CONFIG ?? 'embedded defaults' });
      checks.push({ name: 'stateDir', ok: isWritable(state.config.stateDir), detail: state.config.stateDir });
      checks.push({ name: 'database', ok: true, detail: `schema version ${String(state.db.pragma('user_version', { simple: true }))}, ${String(state.db.pragma('journal_mode', { simple: true }))}` });
      const orgs = state.stores.organizations.list();
      checks.push({ name: 'organizations', ok: true, detail: orgs.map((o) => `${o.id} (${o.plan})`).join(', ') || 'none yet (created on first serve)' });
      for (const p of state.stores.projects.list()) {
        checks.push({ name: `project ${p.id}`, ok: fs.existsSync(p.sourceDir), detail: `${p.domain} → ${p.sourceDir}` });
      }
      checks.push({ name: 'admin keys', ok: true, detail: `${state.stores.adminKeys.list().filter((k) => !k.revokedAt).length} active` });
      checks.push({ name: 'example docs', ok: fs.existsSync(exampleDocsDir()), detail: exampleDocsDir() });
      checks.push({ name: 'node', ok: Number(process.versions.node.split('.')[0]) >= 20, detail: process.version });
    } catch (err) {
      checks.push({ name: 'config', ok: false, detail: (err as Error).message });
    } finally {
      state?.close();
    }
    if (values.json) println(io.stdout, JSON.stringify({ ok: checks.every((c) => c.ok), checks }));
    else for (const c of checks) println(io.stdout, `${c.ok ? 'ok  ' : 'FAIL'}  ${c.name}: ${c.detail}`);
    return checks.every((c) => c.ok) ? 0 : 1;
  },
};

function isWritable(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
