import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { explainDatabaseDamage } from './db-damage.js';
import { migrations, type Migration } from './migrations/index.js';

export type Db = Database.Database;

/**
 * Open the appliance database with the pragmas it relies on, and bring its schema up to date.
 * One connection per thread: render workers never touch the database.
 */
export function openDatabase(file: string, options: { migrations?: readonly Migration[] } = {}): Db {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    configure(db, options.migrations ?? migrations);
  } catch (err) {
    db.close();
    // A file that is not a database fails here, at the first read: name the recovery.
    throw explainDatabaseDamage(err, file);
  }
  return db;
}

function configure(db: Db, list: readonly Migration[]): void {
  // WAL: readers (pollers, the report) never block the single writer, and vice versa.
  db.pragma('journal_mode = WAL');
  // NORMAL is durable across application crashes in WAL mode; only an OS crash can lose the last
  // transactions, an accepted trade for a much cheaper commit. Set explicitly: the default depends
  // on who switched the file to WAL.
  db.pragma('synchronous = NORMAL');
  // Wait for a competing writer (the CLI beside the server) instead of failing at once.
  db.pragma('busy_timeout = 5000');
  // Referential integrity is part of the schema's contract; don't depend on the build's default.
  db.pragma('foreign_keys = ON');
  // Temporary b-trees of GROUP BY/ORDER BY stay in memory rather than in files in the volume.
  db.pragma('temp_store = MEMORY');
  migrate(db, list);
}

/** Apply every migration newer than the database's `user_version`, each in its own transaction. */
export function migrate(db: Db, list: readonly Migration[]): { applied: number[] } {
  const applied: number[] = [];
  const current = db.pragma('user_version', { simple: true }) as number;
  const sorted = [...list].sort((a, b) => a.id - b.id);
  const newest = sorted.length ? sorted[sorted.length - 1]!.id : 0;
  // A database written by a newer release may hold data this one would misread or damage:
  // refuse it, so a rollback means restoring the backup taken before the upgrade.
  if (current > newest) {
    throw new Error(`Database schema version ${current} is newer than this release knows (${newest}): restore the backup taken before the upgrade, or run the newer release`);
  }
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.id === sorted[i - 1]!.id) throw new Error(`Duplicate migration number ${sorted[i]!.id}`);
  }
  for (const m of sorted) {
    if (m.id <= current) continue;
    db.transaction(() => {
      db.exec(m.up);
      db.pragma(`user_version = ${m.id}`);
    }).immediate();
    applied.push(m.id);
  }
  return { applied };
}
