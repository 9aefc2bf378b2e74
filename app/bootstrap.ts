import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/schema.js';
import type { Db } from '../data/db.js';
import type { Stores } from '../data/stores/index.js';
import type { Logger } from './logger.js';
import { exampleDocsDir } from './paths.js';

export const INITIAL_KEY_FILE = 'initial-admin-key';

/** What a sync of the declared projects changed in the database (project ids). */
export interface ProjectChanges {
  added: string[];
  removed: string[];
  changed: string[];
}

/**
 * Organizations and projects declared in the config are the source of truth for those ids (at
 * start and on SIGHUP). Once the config declares organizations it is the list of projects: a
 * project in the database it no longer declares is retired (not served, not listed; its data
 * stays, and declaring it again brings it back). With no organization declared, the database's
 * projects stand (the first-start example project lives there).
 */
export function syncDeclared(config: Readonly<Config>, stores: Stores): ProjectChanges {
  const before = new Map(stores.projects.list().map((p) => [p.id, p]));
  for (const o of config.organizations) stores.organizations.upsert(o);
  const declared = new Set(config.projects.map((p) => p.id));
  const removed: string[] = [];
  // Retired first: a declared project may take the domain a removed one had.
  if (config.organizations.length > 0) for (const id of before.keys()) if (!declared.has(id) && stores.projects.retire(id)) removed.push(id);
  const added: string[] = [];
  const changed: string[] = [];
  for (const p of config.projects) {
    const old = before.get(p.id);
    const now = stores.projects.upsert(p);
    if (!old) added.push(p.id);
    else if (SYNCED.some((k) => JSON.stringify(old[k]) !== JSON.stringify(now[k]))) changed.push(p.id);
  }
  return { added, removed, changed };
}

const SYNCED = ['orgId', 'name', 'domain', 'sourceDir', 'repository', 'branch', 'gitHost'] as const;

/**
 * First start on an empty state dir. With no organization declared anywhere, create `default`
 * (enterprise) and a `docs` project on the bundled example docs. With no admin key yet, create one
 * for the first organization and write it to <stateDir>/initial-admin-key (0600). The log names
 * the file, never the key.
 *
 * The key's row and its file are one step: the row commits only once the file is on disk, so a
 * crash in between leaves no key that nobody can read (the next start makes a new one). The log
 * line follows at once and is written synchronously (app/logger.ts), before the listeners, the
 * features or the example export can fail; and every later start names the file again while it
 * is still there, so no crash can hide where the key is.
 */
export function bootstrapFirstStart(config: Readonly<Config>, stores: Stores, log: Logger, db: Db): void {
  if (stores.organizations.list().length === 0) {
    stores.organizations.upsert({ id: 'default', name: 'Default organization', plan: 'enterprise' });
    const project = stores.projects.upsert({
      id: crypto.randomBytes(12).toString('hex'),
      orgId: 'default',
      name: 'docs',
      domain: 'localhost',
      sourceDir: exampleDocsDir(),
    });
    log.info({ orgId: 'default', projectId: project.id, domain: project.domain, sourceDir: project.sourceDir }, 'first start: created the default organization and the example docs project');
  }
  const file = path.join(config.stateDir, INITIAL_KEY_FILE);
  if (stores.adminKeys.count() === 0) {
    const org = config.organizations[0] ?? stores.organizations.list()[0]!;
    const record = db
      .transaction(() => {
        const created = stores.adminKeys.create({ orgId: org.id, label: 'initial admin key' });
        fs.writeFileSync(file, created.key + '\n', { mode: 0o600, flush: true });
        fs.chmodSync(file, 0o600);
        return created.record;
      })
      .immediate();
    log.warn({ file, keyId: record.id, orgId: org.id }, 'first start: wrote the initial admin key; read it, store it safely, then delete the file');
  } else if (fs.existsSync(file)) {
    log.warn({ file }, 'the initial admin key file is still there; read it, store it safely, then delete the file');
  }
}
