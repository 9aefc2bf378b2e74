import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { isDatabaseDamage } from '../data/db-damage.js';

export const LOCK_FILE = 'serve.lock';

/** Another `serve` holds the state directory. */
export class StateLockedError extends Error {
  constructor(readonly lockFile: string) {
    super(
      `Another docs-appliance serve is running on this state directory (it holds ${lockFile}). ` +
        `Two servers on one state directory would run the same jobs twice; stop the other one first (find it with: fuser ${lockFile}).`,
    );
    this.name = 'StateLockedError';
  }
}

/**
 * The lock file is not a database (overwritten, truncated by a disk fault). It holds nothing of
 * value, but the appliance does not delete it itself: two servers starting at once would each
 * make a new file and each hold its own lock.
 */
export class StateLockDamagedError extends Error {
  readonly code = 'STATE_LOCK_DAMAGED';
  constructor(
    readonly lockFile: string,
    sqliteCode: string,
  ) {
    super(`The lock file ${lockFile} is damaged (${sqliteCode}). It holds nothing of value: with no other serve on this state directory (fuser ${lockFile} names none), delete it and start again.`);
    this.name = 'StateLockDamagedError';
  }
}

export interface StateLock {
  readonly file: string;
  release(): void;
}

/**
 * One `serve` per state directory. The lock is an SQLite file held in EXCLUSIVE locking mode, so
 * the kernel holds it (a POSIX record lock) and drops it when the process dies in any way, kill -9
 * included: a lock left by a crash is never stale, and no pid is guessed at (pids are reused, and
 * in a container the appliance is often pid 1 on every start). The file itself stays; only the
 * lock on it matters. The CLI commands that work beside `serve` never touch it.
 */
export function acquireStateLock(stateDir: string): StateLock {
  fs.mkdirSync(stateDir, { recursive: true, mode: 0o750 });
  const file = path.join(stateDir, LOCK_FILE);
  // timeout 0: a held lock is an answer, not something to wait for.
  const db = new Database(file, { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    // The first write in EXCLUSIVE mode takes the exclusive lock and keeps it until close.
    db.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER, started_at TEXT)');
    db.prepare('DELETE FROM holder').run();
    db.prepare('INSERT INTO holder (pid, started_at) VALUES (?, ?)').run(process.pid, new Date().toISOString());
  } catch (err) {
    db.close();
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))) throw new StateLockedError(file);
    if (isDatabaseDamage(err)) throw new StateLockDamagedError(file, err.code);
    throw err;
  }
  let held = true;
  return {
    file,
    release() {
      if (!held) return;
      held = false;
      db.close();
    },
  };
}
