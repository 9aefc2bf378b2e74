import type { Config } from '../../config/schema.js';
import type { ProjectChanges } from '../bootstrap.js';

/** A new config a running appliance cannot take at all (the reload is refused; nothing changes). */
export class ReloadRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReloadRefusedError';
  }
}

/**
 * What a SIGHUP can apply of a new config: everything but the listeners (they are bound once;
 * the running address is kept and said why) and the state directory (the database, the lock and
 * the served sites live there: a different one refuses the whole reload). docs/operations.md,
 * "Reloading the configuration (SIGHUP)".
 */
export function livePart(running: Readonly<Config>, next: Readonly<Config>): { config: Readonly<Config>; kept: string[] } {
  if (next.stateDir !== running.stateDir) {
    throw new ReloadRefusedError(`stateDir changed (${running.stateDir} → ${next.stateDir}): the database, lock and sites cannot move under a running appliance; restart it to use the new one`);
  }
  const kept: string[] = [];
  for (const listener of ['admin', 'site'] as const) {
    for (const key of ['port', 'host'] as const) {
      const was = running[listener][key];
      const asked = next[listener][key];
      if (was !== asked) kept.push(`${listener}.${key} stays ${String(was)} (the config says ${String(asked)}): a listener moves only with a restart`);
    }
  }
  if (kept.length === 0) return { config: next, kept };
  return {
    config: { ...next, admin: { ...next.admin, port: running.admin.port, host: running.admin.host }, site: { ...next.site, port: running.site.port, host: running.site.host } },
    kept,
  };
}

/**
 * What a reload changed for this process: the database sync's changes, plus the projects the
 * running config and the new one differ by. A CLI command run with the edited file beside the
 * server syncs the database first (app/commands/io.ts openState), so the sync alone would find
 * nothing left to add or retire although the server still serves the old list.
 */
export function projectChanges(running: Readonly<Config>, next: Readonly<Config>, synced: ProjectChanges): ProjectChanges {
  const was = new Set(running.projects.map((p) => p.id));
  const now = new Set(next.projects.map((p) => p.id));
  const union = (a: string[], b: string[]) => [...new Set([...a, ...b])];
  return {
    added: union(synced.added, [...now].filter((id) => !was.has(id))),
    removed: next.organizations.length > 0 ? union(synced.removed, [...was].filter((id) => !now.has(id))) : synced.removed,
    changed: synced.changed,
  };
}
