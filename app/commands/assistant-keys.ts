import { createAssistantKeyStore } from '../assistant/keys-store.js';
import { noConfigHint, println, type CommandIo, type openState } from './io.js';

/**
 * `keys create --type assistant --project <id>`: an assistant key (`mint_dsc_…`) for one project's
 * discovery API. Shown once; only its hash is stored.
 */
export function createAssistantKey(state: ReturnType<typeof openState>, opts: { project: string | undefined; expiresAt: Date | null; label: string | null; json: boolean }, io: CommandIo): number {
  if (!opts.project) {
    println(io.stderr, 'error: --type assistant needs --project <projectId> (an assistant key belongs to one project)');
    return 1;
  }
  if (!state.stores.projects.get(opts.project)) {
    println(io.stderr, `error: no project "${opts.project}" (known: ${state.stores.projects.list().map((p) => p.id).join(', ') || 'none'})${noConfigHint(state)}`);
    return 1;
  }
  const { key, record } = createAssistantKeyStore(state.db, () => new Date()).create({ projectId: opts.project, expiresAt: opts.expiresAt, label: opts.label });
  if (opts.json) println(io.stdout, JSON.stringify({ id: record.id, key, type: 'assistant', projectId: record.projectId, expiresAt: record.expiresAt }));
  else {
    println(io.stdout, `Created assistant key ${record.id} for project ${record.projectId}${record.expiresAt ? ` (expires ${record.expiresAt})` : ''}.`);
    println(io.stdout, `Key (shown once): ${key}`);
  }
  return 0;
}
