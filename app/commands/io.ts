import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Config } from '../../config/schema.js';
import { loadConfig } from '../../config/load.js';
import { openDatabase, type Db } from '../../data/db.js';
import { explainDatabaseDamage } from '../../data/db-damage.js';
import { createStores, type Stores } from '../../data/stores/index.js';
import { syncDeclared } from '../bootstrap.js';
import { DATABASE_FILE } from '../create-context.js';
import path from 'node:path';
import fs from 'node:fs';

export interface CommandIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Secrets are read from here, never from argv (which `ps` shows). */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
}

export interface Command {
  summary: string;
  /** One line per form, `docs-appliance <name> <sub> …`; `--help` prints them (app/commands/help.ts). */
  usage: string;
  /** More help after the usage lines: what the options mean, exit codes. */
  details?: string;
  /** Whether the command has its own `--version <v>` option (export): `--version` alone then prints the version. */
  versionOption?: true;
  run(argv: string[], io: CommandIo): Promise<number>;
}

/** Thrown for bad command-line use: printed with the usage, exit status 2. */
export class UsageError extends Error {}

export function parse<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T, allowPositionals = true) {
  try {
    return parseArgs({ args: argv, options: { ...options, config: { type: 'string' } }, allowPositionals, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/**
 * The config a command would use and whether its state directory holds a database yet, without
 * creating anything: a command that can only find nothing there (keys create on the embedded
 * defaults, run outside the project directory) answers without leaving a ./var behind.
 */
export function probeState(configFile: string | undefined, io: CommandIo): { config: Readonly<Config>; configFile: string | null; hasDatabase: boolean } {
  const source = configFile ?? (io.env.DOCS_APPLIANCE_CONFIG || null);
  const config = loadConfig({ file: source ?? undefined, env: io.env, cwd: io.cwd });
  return { config, configFile: source, hasDatabase: fs.existsSync(path.join(config.stateDir, DATABASE_FILE)) };
}

/** Config + database for commands that work beside (or without) a running server. */
export function openState(configFile: string | undefined, io: CommandIo): { config: Readonly<Config>; configFile: string | null; db: Db; stores: Stores; close(): void } {
  const source = configFile ?? (io.env.DOCS_APPLIANCE_CONFIG || null);
  const config = loadConfig({ file: source ?? undefined, env: io.env, cwd: io.cwd });
  fs.mkdirSync(config.stateDir, { recursive: true });
  const file = path.join(config.stateDir, DATABASE_FILE);
  const db = openDatabase(file);
  try {
    const stores = createStores(db, () => new Date());
    syncDeclared(config, stores);
    return { config, configFile: source, db, stores, close: () => db.close() };
  } catch (err) {
    db.close();
    throw explainDatabaseDamage(err, file);
  }
}

/**
 * Added to a "no organization" / "no project" error when no config file was read: the command then
 * ran on the embedded defaults (the state directory ./var of the current directory), which is
 * rarely the server's, so it says so and how to name the server's config.
 */
export function noConfigHint(state: { configFile: string | null; config: Readonly<Config> }): string {
  if (state.configFile) return '';
  return `; no config file was found (no --config, DOCS_APPLIANCE_CONFIG not set), so this used the embedded defaults and the state directory ${state.config.stateDir}: pass the server's config with --config <file> or set DOCS_APPLIANCE_CONFIG`;
}

export const println = (stream: NodeJS.WritableStream, text = '') => stream.write(text + '\n');

/** All of standard input as text, up to `maxBytes` (a secret, not a file). */
export async function readStdin(io: CommandIo, maxBytes = 4096): Promise<string> {
  if (!io.stdin) throw new UsageError('this command reads from standard input, which is not available');
  let text = '';
  for await (const chunk of io.stdin) {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    if (text.length > maxBytes) throw new UsageError(`standard input is longer than ${maxBytes} bytes`);
  }
  return text;
}
