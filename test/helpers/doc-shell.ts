import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { packageRoot } from '../../app/paths.js';
import { cliCommand } from './cli-entry.js';

/**
 * The fenced ```sh blocks of a file under docs/, in order: what a reader copies and pastes. With
 * `section` (a `## ` heading's text), only the blocks under that heading.
 */
export function shellBlocks(docFile: string, section?: string): string[] {
  let text = fs.readFileSync(path.join(packageRoot(), docFile), 'utf8');
  if (section !== undefined) {
    const start = text.indexOf(`\n## ${section}\n`);
    if (start < 0) throw new Error(`${docFile} has no section "## ${section}"`);
    const end = text.indexOf('\n## ', start + 1);
    text = text.slice(start, end < 0 ? undefined : end);
  }
  return [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/**
 * A directory holding a `docs-appliance` executable (this checkout's CLI, as the tests run it:
 * cli-entry.ts), to put first on a documented procedure's PATH. `exec` keeps the process's pid the
 * appliance's, so `$!` and `kill` in the docs reach the server itself.
 */
export function cliOnPath(dir: string): string {
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin, { recursive: true });
  const args = [process.execPath, ...cliCommand()].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  fs.writeFileSync(path.join(bin, 'docs-appliance'), `#!/bin/sh\nexec ${args} "$@"\n`, { mode: 0o755 });
  return bin;
}

/** `count` TCP ports that were free on 127.0.0.1 a moment ago. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise<net.Server>((resolve, reject) => {
      const s = net.createServer();
      s.once('error', reject);
      s.listen(0, '127.0.0.1', () => resolve(s));
    })),
  );
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

/**
 * Run a script with bash (`set -euo pipefail`) in its own process group, from `cwd` (default: the
 * package root).
 * Whatever it leaves running (a server started with `&` by a step that then failed) is sent
 * SIGTERM through the group when it ends, so nothing outlives the test.
 */
export function runBash(script: string, env: Record<string, string>, timeoutMs: number, cwd = packageRoot()): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const proc = spawn('bash', ['-c', `set -euo pipefail\n${script}`], {
      cwd,
      env: { ...process.env, DOCS_APPLIANCE_CONFIG: '', DOCS_APPLIANCE_STATE_DIR: '', DOCS_APPLIANCE_ADMIN_PORT: '', DOCS_APPLIANCE_SITE_PORT: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    let err = '';
    proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const timer = setTimeout(() => killGroup(proc.pid!), timeoutMs);
    proc.once('exit', () => killGroup(proc.pid!));
    proc.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    // the group is empty: everything it started has ended
  }
}
