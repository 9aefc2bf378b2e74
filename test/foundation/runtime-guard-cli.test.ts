import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assessRuntime, detectRuntime, SUPPORTED_RUNTIMES } from '../../app/runtime-guard.js';
import { runCliProcess, spawnServe, untilListening, type ServeProcess } from '../helpers/serve-process.js';

// The suite runs on two Nodes (.ci/run): this machine's Node 20, past its end of life, and the
// image's Node 22. What `serve` and `doctor` say follows from the running pair; that the pair's
// verdict is right is runtime-guard.test.ts's job, and the refusal of a pair known to abort runs
// on a real Node 24 in scripts/check-runtime-guard.sh.
const runtime = detectRuntime();
const verdict = assessRuntime(runtime, new Date());

let running: ServeProcess | undefined;
let dir: string | undefined;
afterEach(() => {
  if (running && running.proc.exitCode === null && running.proc.signalCode === null) running.proc.kill('SIGKILL');
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  running = dir = undefined;
});

describe(`the runtime guard through the CLI process (Node ${runtime.node}, better-sqlite3 ${runtime.driver}: ${verdict.kind})`, () => {
  it('serve names an end-of-life Node once, first in its log, and starts; a supported pair is not mentioned', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runtime-cli-'));
    const config = path.join(dir, 'config.json');
    fs.writeFileSync(config, JSON.stringify({ stateDir: path.join(dir, 'state'), admin: { port: 0, host: '127.0.0.1' }, site: { port: 0, host: '127.0.0.1', exampleOnFirstStart: false }, log: { level: 'info' } }));
    running = spawnServe(config);
    await untilListening(running);
    const lines = running.lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { level: number; code?: string; node?: string; driver?: string; msg: string });
    const warnings = lines.filter((l) => l.code === 'NODE_END_OF_LIFE' || l.code === 'UNSUPPORTED_RUNTIME');
    if (verdict.kind === 'end-of-life') {
      expect(warnings).toEqual([expect.objectContaining({ level: 40, code: 'NODE_END_OF_LIFE', node: runtime.node, driver: runtime.driver, msg: verdict.message })]);
      expect(lines[0]).toBe(warnings[0]);
      expect(verdict.message).toContain(`Supported: ${SUPPORTED_RUNTIMES}`);
    } else {
      expect(verdict.kind).toBe('supported');
      expect(warnings).toEqual([]);
    }
    running.proc.kill('SIGTERM');
    expect(await running.exited).toBe(0);
  }, 60_000);

  it('doctor reports the pair: a warning (exit 0) on an end-of-life Node, ok on a supported one', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runtime-cli-'));
    const config = path.join(dir, 'config.json');
    fs.writeFileSync(config, JSON.stringify({ stateDir: path.join(dir, 'state') }));
    const r = await runCliProcess(['doctor', '--config', config]);
    expect(r.code, r.out + r.err).toBe(0);
    const line = r.out.split('\n').find((l) => l.includes(' runtime: '));
    if (verdict.kind === 'end-of-life') expect(line).toBe(`warn  runtime: ${verdict.message}`);
    else expect(line).toBe(`ok    runtime: Node ${runtime.node}, better-sqlite3 ${runtime.driver}: supported`);
    expect(r.err).toBe('');
  }, 60_000);
});
