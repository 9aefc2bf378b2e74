import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runLimitsOf } from '../../app/agent/limits.js';
import type { RunEvent, RunInput } from '../../app/agent/run-protocol.js';
import { runInWorker } from '../../app/agent/worker-host.js';
import { configSchema } from '../../config/schema.js';

const fixture = (name: string) => ({ filename: path.join(import.meta.dirname, '..', 'fixtures', 'agent', 'workers', name) });
const input: RunInput = {
  jobId: 'aj_test',
  turn: 1,
  workDir: '/nonexistent',
  repository: '/nonexistent.git',
  baseBranch: 'main',
  ref: 'docs-agent/test',
  prLink: null,
  draft: false,
  title: null,
  conversation: [{ role: 'user', content: 'x' }],
  model: { baseUrl: 'http://127.0.0.1:9/v1', name: 'm', apiKeyEnv: null },
  gitHost: null,
  limits: { ...runLimitsOf(configSchema.parse({}).agent), maxSteps: 1, timeoutSeconds: 1 },
};

describe('runInWorker', () => {
  it('turns a crash of the runner thread into a failed outcome; the host process carries on', async () => {
    const events: RunEvent[] = [];
    const run = runInWorker(input, (e) => events.push(e), fixture('crash.mjs'));
    expect(await run.outcome).toEqual({ ok: false, reason: 'the runner crashed: segfault-like failure' });
    expect(events).toEqual([{ type: 'log', level: 'info', msg: 'about to crash' }]);
  });

  it('fails a run whose thread exits without an outcome', async () => {
    const run = runInWorker(input, () => {}, fixture('exit.mjs'));
    expect(await run.outcome).toEqual({ ok: false, reason: 'the runner exited unexpectedly (exit code 7)' });
  });

  it('terminate() stops a hung thread at once (shutdown)', async () => {
    const run = runInWorker(input, () => {}, fixture('hang.mjs'));
    const started = Date.now();
    await run.terminate();
    expect(await run.outcome).toEqual({ ok: false, reason: 'stopped' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a real run that cannot clone reports the reason as its outcome', async () => {
    const run = runInWorker(input, () => {});
    const outcome = await run.outcome;
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.reason).toMatch(/^git clone failed: .*nonexistent\.git/);
  });
});
