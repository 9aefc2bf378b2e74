/**
 * A database file SQLite cannot read as one (a bad header, a torn page, a lost `-wal` of another
 * file). Nothing the appliance does at start-up can make it whole again; the operator's recovery
 * is the backup. Every place that meets such a file says so in the same words.
 */

/** The code of the start-up failure and of the CLI's error line. */
export const DATABASE_DAMAGED = 'DATABASE_DAMAGED';

/** Where docs/operations.md tells how to recover. */
export const RECOVERY = 'docs/operations.md, "A damaged database"';

/** SQLite's result codes for a file that is not, or no longer, a valid database. */
export function isDatabaseDamage(err: unknown): err is Error & { code: string } {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT' || code.startsWith('SQLITE_CORRUPT_'));
}

export class DatabaseDamagedError extends Error {
  readonly code = DATABASE_DAMAGED;
  constructor(
    readonly file: string | undefined,
    readonly sqliteCode: string,
    detail: string,
  ) {
    super(damageMessage(file, sqliteCode, detail));
    this.name = 'DatabaseDamagedError';
  }
}

function damageMessage(file: string | undefined, sqliteCode: string, detail: string): string {
  return (
    `The database ${file ?? '(docs-appliance.db in the state directory)'} is damaged (${sqliteCode}: ${detail}). ` +
    `Stop the appliance, move the damaged file and its -wal and -shm files aside, and restore the last backup (${RECOVERY}); ` +
    '`docs-appliance doctor` checks a restored file'
  );
}

/** The same error with the recovery named, when `err` is a damaged database; otherwise `err` itself. */
export function explainDatabaseDamage(err: unknown, file: string | undefined): unknown {
  if (err instanceof DatabaseDamagedError || !isDatabaseDamage(err)) return err;
  return new DatabaseDamagedError(file, err.code, err.message);
}
