import type { Stores } from '../../data/stores/index.js';
import type { Db } from '../../data/db.js';
import { createPublishStore } from '../../data/stores/publishes.js';
import { listVersions, readActive, writeActive } from '../loader/sites-dir.js';
import { publishedSlot } from './slots.js';

/**
 * `sites list|rollback --project <id>` (the CLI beside a running appliance): the project's
 * published slot. A rollback writes the slot's pointer and records a `rollback` with trigger `cli`,
 * like the API does; the running appliance serves it on SIGHUP (or at its next start).
 */
export function projectVersions(stateDir: string, projectId: string) {
  const slot = publishedSlot(stateDir, projectId);
  const active = readActive(slot);
  return { active: active ?? null, versions: listVersions(slot).map((v) => ({ ...v, active: v.dir === active?.dir })) };
}

export function rollbackProject(state: { config: { stateDir: string }; db: Db; stores: Stores }, projectId: string, wanted: string): { ok: true; version: string } | { ok: false; message: string } {
  if (!state.stores.projects.get(projectId)) return { ok: false, message: `no project "${projectId}"` };
  const slot = publishedSlot(state.config.stateDir, projectId);
  const versions = listVersions(slot);
  const target = versions.find((v) => v.version === wanted) ?? versions.find((v) => v.name === wanted);
  if (!target) return { ok: false, message: `no kept version "${wanted}" of project ${projectId}. Available: ${versions.map((v) => v.version).join(', ') || 'none'}` };
  const store = createPublishStore(state.db, () => new Date());
  const record = store.create({ projectId, kind: 'rollback', trigger: 'cli', version: target.version });
  const started = performance.now();
  store.start(record.id);
  writeActive(slot, { version: target.version, dir: target.dir, projectId, mounted: false, source: `rollback ${record.id}`, activatedAt: new Date().toISOString() });
  store.finish(record.id, 'success', `Rolled back to version ${target.version} (from the CLI)`, started);
  return { ok: true, version: target.version };
}
