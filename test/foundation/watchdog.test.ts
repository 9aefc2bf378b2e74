/**
 * `serve` ends whatever its main thread is doing (issue 37, finding 2): a main thread that stops
 * running is ended by the watchdog thread after shutdown.stallMs, so SIGTERM is not lost; and a
 * serve run by npm stops when npm has exited instead of holding its ports and state dir.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../../app/paths.js';
import { cliCommand } from '../helpers/cli-entry.js';
import { spawnServe, untilListening, type ServeProcess } from '../helpers/serve-process.js';

const FREEZE = pathToFileURL(path.join(packageRoot(), 'test/fixtures/process/freeze-on-sigusr2.mjs')).href;

let running: ServeProcess | undefined;
let dir: string | undefined;
const pids: number[] = [];
afterEach(() => {
  if (running && running.proc.exitCode === null && running.proc.signalCode === null) running.proc.kill('SIGKILL');
  for (const pid of pids.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  }
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  running = dir = undefined;
});

function config(extra: Record<string, unknown> = {}): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'watchdog-'));
  const file = path.join(dir, 'config.json');
  fs.writeFileSync(file, JSON.stringify({ stateDir: path.join(dir, 'state'), admin: { port: 0, host: '127.0.0.1' }, site: { port: 0, host: '127.0.0.1', exampleOnFirstStart: false }, organizations: [{ id: 'org_w', name: 'W' }], ...extra }));
  return file;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the watchdog of serve', () => {
  it('ends a process whose main thread stalls, SIGTERM or not, and says why in the log', async () => {
    running = spawnServe(config({ shutdown: { stallMs: 1500 } }), ['--import', FREEZE]);
    await untilListening(running);
    running.proc.kill('SIGUSR2');
    await new Promise((r) => setTimeout(r, 300));
    running.proc.kill('SIGTERM');
    const started = Date.now();
    await once(running.proc, 'exit');
    expect(running.proc.signalCode).toBe('SIGKILL');
    expect(Date.now() - started).toBeLessThan(10_000);
    const line = running.lines.map((l) => (l.startsWith('{') ? (JSON.parse(l) as { code?: string; msg: string; stallMs?: number }) : undefined)).find((l) => l?.code === 'MAIN_THREAD_STALLED');
    expect(line).toMatchObject({ msg: 'the main thread has not answered; ending the process so that it can be restarted', stallMs: 1500 });
  }, 60_000);

  it('leaves a healthy process alone and stops it gracefully on SIGTERM', async () => {
    running = spawnServe(config({ shutdown: { stallMs: 1000 } }));
    await untilListening(running);
    // Several stall periods of an idle server: nothing happens.
    await new Promise((r) => setTimeout(r, 2500));
    expect(running.proc.exitCode).toBeNull();
    running.proc.kill('SIGTERM');
    const [code] = (await once(running.proc, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(running.lines.some((l) => l.includes('"msg":"stopped"'))).toBe(true);
  }, 60_000);

  it('run by npm, stops when npm has exited', async () => {
    const file = config();
    const log = path.join(dir!, 'serve.log');
    // A stand-in for npm: starts serve as npm does (npm_lifecycle_event set), then exits without it.
    const launcher = `
      const { spawn } = require('node:child_process');
      const fs = require('node:fs');
      const out = fs.openSync(${JSON.stringify(log)}, 'a');
      const child = spawn(process.execPath, ${JSON.stringify([...cliCommand(), 'serve', '--config', file])}, { stdio: ['ignore', out, out], env: { ...process.env, npm_lifecycle_event: 'start', DOCS_APPLIANCE_CONFIG: '' } });
      const wait = setInterval(() => {
        if (fs.readFileSync(${JSON.stringify(log)}, 'utf8').includes('"msg":"listening"')) { console.log(child.pid); clearInterval(wait); process.exit(0); }
      }, 50);`;
    const npm = spawn(process.execPath, ['-e', launcher], { cwd: packageRoot(), stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    npm.stdout.on('data', (c: Buffer) => (out += c.toString()));
    await once(npm, 'exit');
    const pid = Number(out.trim());
    expect(pid).toBeGreaterThan(0);
    pids.push(pid);
    const deadline = Date.now() + 15_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(alive(pid)).toBe(false);
    const text = fs.readFileSync(log, 'utf8');
    expect(text).toContain('"code":"PARENT_EXITED"');
    expect(text).toContain('"msg":"stopped"');
  }, 60_000);
});
