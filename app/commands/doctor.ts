import fs from 'node:fs';
import type { Config } from '../../config/schema.js';
import { DatabaseDamagedError, RECOVERY } from '../../data/db-damage.js';
import type { Project } from '../../data/stores/projects.js';
import { exampleDocsDir } from '../paths.js';
import { runtimeGate } from '../runtime-guard.js';
import { openState, parse, println, type Command } from './io.js';

/** What an operator checks first when something is off: config, state dir, database, tenants. */
export const doctorCommand: Command = {
  summary: 'Check the configuration, state directory and database',
  usage: 'docs-appliance doctor [--config <file>] [--json]',
  async run(argv, io) {
    const { values } = parse(argv, { json: { type: 'boolean', default: false } }, false);
    // `warn`: reported, but not a failure (an end-of-life Node still runs).
    const checks: { name: string; ok: boolean; warn?: true; detail: string }[] = [runtimeCheck(io.env)];
    let state: ReturnType<typeof openState> | undefined;
    try {
      state = openState(values.config, io);
      checks.push({ name: 'config', ok: true, detail: values.config ?? io.env.DOCS_APPLIANCE_CONFIG ?? 'embedded defaults' });
      checks.push(stateDirCheck(state.config.stateDir));
      checks.push({ name: 'database', ok: true, detail: `schema version ${String(state.db.pragma('user_version', { simple: true }))}, ${String(state.db.pragma('journal_mode', { simple: true }))}` });
      checks.push(integrityCheck(state.db));
      const orgs = state.stores.organizations.list();
      checks.push({ name: 'organizations', ok: true, detail: orgs.map((o) => `${o.id} (${o.plan})`).join(', ') || 'none yet (created on first serve)' });
      for (const p of state.stores.projects.list()) checks.push(projectCheck(p, state.config));
      checks.push({ name: 'admin keys', ok: true, detail: `${state.stores.adminKeys.list().filter((k) => !k.revokedAt).length} active` });
      const example = exampleDocsDir();
      checks.push(fs.existsSync(example) ? { name: 'example docs', ok: true, detail: example } : { name: 'example docs', ok: false, detail: `${example} does not exist: the installation is incomplete; reinstall the release or the image` });
    } catch (err) {
      checks.push({ name: err instanceof DatabaseDamagedError ? 'database' : 'config', ok: false, detail: (err as Error).message });
    } finally {
      state?.close();
    }
    if (values.json) println(io.stdout, JSON.stringify({ ok: checks.every((c) => c.ok), checks }));
    else for (const c of checks) println(io.stdout, `${c.ok ? (c.warn ? 'warn' : 'ok  ') : 'FAIL'}  ${c.name}: ${c.detail}`);
    return checks.every((c) => c.ok) ? 0 : 1;
  },
};

function stateDirCheck(dir: string) {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return { name: 'stateDir', ok: true, detail: dir };
  } catch {
    const uid = process.getuid?.();
    return { name: 'stateDir', ok: false, detail: `${dir} is not writable${uid === undefined ? '' : ` by uid ${uid}`}: give the directory to the appliance's user (chown) or set stateDir to a writable one` };
  }
}

/**
 * A project published from git reads its repository (nothing to find on disk); any other one
 * exports its sourceDir, which must be there (in a container: mounted).
 */
function projectCheck(p: Project, config: Readonly<Config>) {
  const name = `project ${p.id}`;
  const index = config.projects.findIndex((d) => d.id === p.id);
  const git = index >= 0 && config.projects[index]!.publish?.source === 'git';
  if (git) return { name, ok: true, detail: `${p.domain} → git ${p.repository ?? '?'} (${p.branch ?? 'main'})` };
  const where = index >= 0 ? `projects[${index}].sourceDir` : 'its sourceDir by declaring the project in the config file';
  if (p.sourceDir === null) return { name, ok: false, detail: `${p.domain}: no source directory: set ${where}, or publish.source "git" with a repository` };
  if (!fs.existsSync(p.sourceDir)) return { name, ok: false, detail: `${p.domain}: source directory ${p.sourceDir} does not exist: mount the docs there or set ${where}` };
  return { name, ok: true, detail: `${p.domain} → ${p.sourceDir}` };
}

/** The Node and driver pair (app/runtime-guard.ts): a pair known to abort fails, an end-of-life Node warns. */
function runtimeCheck(env: NodeJS.ProcessEnv) {
  const gate = runtimeGate(env);
  if (gate.refuse !== undefined) return { name: 'runtime', ok: false, detail: gate.refuse };
  const { runtime } = gate.assessment;
  const pair = `Node ${runtime.node}, better-sqlite3 ${runtime.driver}`;
  if (gate.assessment.kind === 'aborts') return { name: 'runtime', ok: false, detail: gate.warning ?? pair };
  if (gate.warning !== undefined) return { name: 'runtime', ok: true, warn: true as const, detail: gate.warning };
  return { name: 'runtime', ok: true, detail: `${pair}: supported` };
}

/**
 * SQLite's quick_check reads every page (seconds per GB): a torn page deep in a table, which
 * opening the file does not notice, fails here with the recovery named.
 */
function integrityCheck(db: ReturnType<typeof openState>['db']) {
  let problems: string[];
  try {
    problems = (db.pragma('quick_check(20)') as { quick_check: string }[]).map((r) => r.quick_check).filter((r) => r !== 'ok');
  } catch (err) {
    problems = [(err as Error).message];
  }
  if (problems.length === 0) return { name: 'integrity', ok: true, detail: 'quick_check ok' };
  return { name: 'integrity', ok: false, detail: `the database is damaged (${problems.slice(0, 3).join('; ')}): stop the appliance and restore the last backup (${RECOVERY})` };
}
