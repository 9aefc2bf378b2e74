import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { packageRoot } from '../../app/paths.js';
import { cliCommand } from './cli-entry.js';

/** Only the config file counts: nothing from the test runner's environment leaks in. */
const env = () => ({ ...process.env, DOCS_APPLIANCE_CONFIG: '', DOCS_APPLIANCE_STATE_DIR: '', DOCS_APPLIANCE_ADMIN_PORT: '', DOCS_APPLIANCE_SITE_PORT: '' });

export interface ServeProcess {
  proc: ChildProcess;
  /** stdout log lines and stderr chunks, in arrival order. */
  lines: string[];
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

/**
 * `docs-appliance serve --config <file>` as a real process (node, not a wrapper: its pid is the
 * server's). `nodeArgs` go before the CLI (a fault-injection `--import`, say).
 */
export function spawnServe(configFile: string, nodeArgs: string[] = []): ServeProcess {
  const proc = spawn(process.execPath, [...nodeArgs, ...cliCommand(), 'serve', '--config', configFile], { cwd: packageRoot(), env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  readline.createInterface({ input: proc.stdout! }).on('line', (l) => lines.push(l));
  proc.stderr!.on('data', (c: Buffer) => lines.push(c.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { proc, lines, exited };
}

/** Wait for the "listening" line; reject if the process exits first or takes longer than `ms`. */
export async function untilListening(s: ServeProcess, ms = 30_000): Promise<{ adminPort: number; sitePort: number }> {
  const deadline = Date.now() + ms;
  let exitCode: number | null | undefined;
  void s.exited.then((c) => (exitCode = c));
  for (;;) {
    for (const line of s.lines) {
      if (!line.includes('"msg":"listening"')) continue;
      const entry = JSON.parse(line) as { adminPort: number; sitePort: number };
      return { adminPort: entry.adminPort, sitePort: entry.sitePort };
    }
    if (exitCode !== undefined) throw new Error(`serve exited with ${exitCode}:\n${s.lines.join('\n')}`);
    if (Date.now() > deadline) throw new Error(`serve did not start:\n${s.lines.join('\n')}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Run one CLI command as its own process; resolve with its exit code and output. `cwd` (default:
 * the package root) is where it runs, for what the embedded defaults' relative `./var` means.
 */
export function runCliProcess(args: string[], opts: { cwd?: string } = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [...cliCommand(), ...args], { cwd: opts.cwd ?? packageRoot(), env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (err += c.toString()));
    proc.once('exit', (code) => resolve({ code, out, err }));
  });
}
