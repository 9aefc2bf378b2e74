import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { buildAdminApp } from '../../app/admin-app.js';
import { main } from '../../app/cli.js';
import { createAppContext } from '../../app/create-context.js';
import { createFeatures } from '../../app/features.js';
import { createLogger } from '../../app/logger.js';
import { loadConfig } from '../../config/load.js';
import type { CommandIo } from '../../app/commands/io.js';

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

/** Run a CLI command in-process with captured output (default: the whole `docs-appliance` CLI). */
export async function runCli(
  argv: string[],
  options: { cwd?: string; stdin?: string; run?: (argv: string[], io: CommandIo) => Promise<number> } = {},
): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const io: CommandIo = { stdout, stderr, env: {}, cwd: options.cwd ?? process.cwd(), ...(options.stdin !== undefined ? { stdin: Readable.from([options.stdin]) } : {}) };
  const code = await (options.run ?? main)(argv, io);
  return { code, out, err };
}

/** The project of `cliConfig`'s config. */
export const CLI_PROJECT = '65a1f0c2e4b0a1b2c3d4e5f6';

/** A temp dir with a config file for CLI tests: organization org_a (enterprise) and CLI_PROJECT on the dir. */
export function cliConfig(prefix: string): { dir: string; config: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const config = path.join(dir, 'config.json');
  fs.writeFileSync(
    config,
    JSON.stringify({
      stateDir: path.join(dir, 'state'),
      organizations: [{ id: 'org_a', name: 'A', plan: 'enterprise' }],
      projects: [{ id: CLI_PROJECT, orgId: 'org_a', name: 'A docs', domain: 'docs.a.internal', sourceDir: dir }],
    }),
  );
  return { dir, config };
}

/** The admin app over a CLI test's config (the same state dir), to check through HTTP what a command did. */
export function cliAdminApp(configFile: string) {
  const config = loadConfig({ file: configFile, env: {} });
  const ctx = createAppContext({ config, log: createLogger('silent') });
  return { ctx, app: buildAdminApp(ctx, createFeatures(ctx)), close: () => ctx.db.close() };
}
