import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../../app/paths.js';
import { spawnServe, untilListening, type ServeProcess } from '../helpers/serve-process.js';

/** Kills the process on the tick after the key file is written (no exit handler, no flush). */
const DIE_AFTER_KEY = pathToFileURL(path.join(packageRoot(), 'test/fixtures/process/die-after-initial-key.mjs')).href;

let running: ServeProcess | undefined;
let dir: string | undefined;
afterEach(() => {
  if (running && running.proc.exitCode === null && running.proc.signalCode === null) running.proc.kill('SIGKILL');
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  running = dir = undefined;
});

interface LogLine {
  level: number;
  msg: string;
  file?: string;
  code?: string;
}
/** The JSON log lines, less the end-of-life warning of the Node running the suite (runtime-guard tests). */
const parsed = (lines: string[]): LogLine[] =>
  lines
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as LogLine)
    .filter((l) => l.code !== 'NODE_END_OF_LIFE');

describe('the log line that says where the initial admin key is', () => {
  it('is on standard output even when the process dies in the very next step, and the next start names the file again', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'initial-key-log-'));
    const stateDir = path.join(dir, 'state');
    const configFile = path.join(dir, 'config.json');
    // A first start: no organization, so the default one and the example docs project are made
    // and the example would be exported once the listeners are up.
    fs.writeFileSync(configFile, JSON.stringify({ stateDir, admin: { port: 0, host: '127.0.0.1' }, site: { port: 0, host: '127.0.0.1' }, log: { level: 'info' } }));
    const keyFile = path.join(stateDir, 'initial-admin-key');

    running = spawnServe(configFile, ['--import', DIE_AFTER_KEY]);
    await once(running.proc, 'close');
    expect(running.proc.signalCode, running.lines.join('\n')).toBe('SIGKILL');
    const lines = parsed(running.lines);
    // Nothing after the key was reached...
    expect(lines.some((l) => l.msg === 'listening')).toBe(false);
    // ...and the line naming the file is there, after the ones logged before it.
    expect(lines.map((l) => l.msg)).toEqual([
      'database open (WAL for concurrent readers, synchronous=NORMAL (1), busy_timeout for the CLI beside the server)',
      'first start: created the default organization and the example docs project',
      'first start: wrote the initial admin key; read it, store it safely, then delete the file',
    ]);
    expect(lines[2]).toMatchObject({ level: 40, file: keyFile });
    const key = fs.readFileSync(keyFile, 'utf8').trim();
    expect(key).toMatch(/^mint_[0-9A-Za-z]{40}$/);
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(running.lines.join('\n')).not.toContain(key);

    // The next start keeps that key (its row was committed with the file) and names the file again.
    // (No example export from here on: it is not what these starts are about, and costs seconds.)
    fs.writeFileSync(configFile, JSON.stringify({ stateDir, admin: { port: 0, host: '127.0.0.1' }, site: { port: 0, host: '127.0.0.1', exampleOnFirstStart: false }, log: { level: 'info' } }));
    running = spawnServe(configFile);
    const { adminPort } = await untilListening(running);
    const again = parsed(running.lines).filter((l) => l.file === keyFile);
    expect(again).toEqual([expect.objectContaining({ level: 40, msg: 'the initial admin key file is still there; read it, store it safely, then delete the file' })]);
    const res = await fetch(`http://127.0.0.1:${adminPort}/v1/static-export/jobs/0123456789abcdef01234567`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(404);
    const denied = await fetch(`http://127.0.0.1:${adminPort}/v1/static-export/jobs/0123456789abcdef01234567`, { headers: { authorization: `Bearer mint_${'x'.repeat(40)}` } });
    expect(denied.status).toBe(401);
    running.proc.kill('SIGTERM');
    expect(await running.exited).toBe(0);

    // Once the operator has deleted the file, a start says nothing about it.
    fs.rmSync(keyFile);
    running = spawnServe(configFile);
    await untilListening(running);
    expect(parsed(running.lines).filter((l) => /initial admin key/.test(l.msg))).toEqual([]);
    running.proc.kill('SIGTERM');
    expect(await running.exited).toBe(0);
  }, 90_000);
});
