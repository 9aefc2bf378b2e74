import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RunEvent, RunInput, RunOutcome } from './run-protocol.js';

export interface WorkerEntry {
  filename: string;
  execArgv?: string[];
}

/**
 * The runner as compiled `runner-worker.js` (dist), or the `.ts` source under tsx/vitest, where
 * the thread needs the tsx loader unless Node already runs with it (workers inherit execArgv).
 */
export function runnerWorkerEntry(): WorkerEntry {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const js = path.join(here, 'runner-worker.js');
  if (fs.existsSync(js)) return { filename: js };
  const ts = path.join(here, 'runner-worker.ts');
  const inherited =
    process.execArgv.some((a, i, all) => (a === '--import' || a === '--loader') && /tsx/.test(all[i + 1] ?? '')) ||
    process.execArgv.some((a) => /^--(import|loader)=.*tsx/.test(a));
  return inherited ? { filename: ts } : { filename: ts, execArgv: ['--import', 'tsx'] };
}

export interface WorkerRun {
  /** Settles once: the worker's outcome, or a failure for a crash, an early exit or the hard limit. */
  outcome: Promise<RunOutcome>;
  /** Stop the thread now (shutdown). The outcome then reports `stopped`. */
  terminate(): Promise<void>;
}

/** Heap of one run: a runaway model reply or tool result cannot take the appliance's memory. */
const RUN_HEAP_MB = 512;
/** Beyond the run's own wall-clock limit, how long the host waits before killing the thread. */
const HARD_LIMIT_GRACE_MS = 30_000;

/**
 * Run one agent turn in its own worker thread. The host keeps serving whatever the run does:
 * a thrown error, a crash or a hang past the wall-clock limit becomes a failed outcome.
 */
export function runInWorker(input: RunInput, onEvent: (e: RunEvent) => void, entry: WorkerEntry = runnerWorkerEntry()): WorkerRun {
  const worker = new Worker(entry.filename, {
    workerData: input,
    ...(entry.execArgv ? { execArgv: entry.execArgv } : {}),
    resourceLimits: { maxOldGenerationSizeMb: RUN_HEAP_MB },
    stdout: false,
    stderr: false,
  });
  let settle!: (o: RunOutcome) => void;
  let settled = false;
  const outcome = new Promise<RunOutcome>((resolve) => {
    settle = (o) => {
      if (settled) return;
      settled = true;
      clearTimeout(hardTimer);
      resolve(o);
      // The run is over: drop the thread now rather than wait for idle sockets to close.
      void worker.terminate();
    };
  });
  const hardTimer = setTimeout(
    () => settle({ ok: false, reason: `wall-clock limit of ${input.limits.timeoutSeconds} s reached (agent.timeoutSeconds); the runner was stopped` }),
    input.limits.timeoutSeconds * 1000 + HARD_LIMIT_GRACE_MS,
  );
  hardTimer.unref();
  worker.on('message', (e: RunEvent) => {
    if (settled) return;
    if (e.type === 'outcome') settle(e.outcome);
    else onEvent(e);
  });
  worker.on('error', (err) => settle({ ok: false, reason: `the runner crashed: ${err.message}` }));
  worker.on('exit', (code) => settle({ ok: false, reason: `the runner exited unexpectedly (exit code ${code})` }));
  return {
    outcome,
    async terminate() {
      settle({ ok: false, reason: 'stopped' });
      await worker.terminate();
    },
  };
}
