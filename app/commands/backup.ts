import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig } from '../../config/load.js';
import { explainDatabaseDamage } from '../../data/db-damage.js';
import { DATABASE_FILE } from '../create-context.js';
import { parse, println, UsageError, type Command } from './io.js';

/**
 * `backup <file>`: a consistent copy of the live database through SQLite's online backup API, safe
 * while `serve` runs (it takes no state-directory lock). The rest of the state directory is copied
 * by the operator's tar (docs/operations.md, "Backing up /data"), which removes this copy after.
 */
export const backupCommand: Command = {
  summary: 'Write a consistent copy of the database (while serving)',
  usage: 'docs-appliance backup <file> [--config <file>]',
  details: `Copies <stateDir>/${DATABASE_FILE} to <file> with SQLite's online backup API: a consistent
snapshot, taken while the server runs. <file> is replaced if it exists. The signing secrets,
sites and the rest of the state directory are not in it: docs/operations.md, "Backing up /data",
archives them with the copy and then removes the copy.`,
  async run(argv, io) {
    const args = parse(argv, {});
    const target = args.positionals[0];
    if (!target || args.positionals.length > 1) throw new UsageError('backup takes one argument: the file to write');
    const config = loadConfig({ file: args.values.config, env: io.env, cwd: io.cwd });
    const live = path.join(config.stateDir, DATABASE_FILE);
    const dest = path.resolve(io.cwd, target);
    if (dest === live || dest.startsWith(`${live}-`)) throw new UsageError(`${target} is the live database (or one of its files): name another file`);
    if (!fs.existsSync(live)) {
      println(io.stderr, `error: no database at ${live} (the state directory of ${args.values.config ?? (io.env.DOCS_APPLIANCE_CONFIG || 'the embedded defaults')})`);
      return 1;
    }
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    const db = new Database(live, { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      await db.backup(dest);
    } catch (err) {
      throw explainDatabaseDamage(err, live);
    } finally {
      db.close();
    }
    println(io.stdout, `backup written: ${dest} (${fs.statSync(dest).size} bytes)`);
    return 0;
  },
};
