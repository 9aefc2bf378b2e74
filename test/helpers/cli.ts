import { PassThrough } from 'node:stream';
import { main } from '../../app/cli.js';
import type { CommandIo } from '../../app/commands/io.js';

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

/** Run a CLI command in-process with captured output (default: the whole `docs-appliance` CLI). */
export async function runCli(
  argv: string[],
  options: { cwd?: string; run?: (argv: string[], io: CommandIo) => Promise<number> } = {},
): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const io: CommandIo = { stdout, stderr, env: {}, cwd: options.cwd ?? process.cwd() };
  const code = await (options.run ?? main)(argv, io);
  return { code, out, err };
}
