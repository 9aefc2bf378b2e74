import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RunEvent, RunInput, RunOutcome } from './run-protocol.js';

export interface WorkerEntry {
  filename: string;
}

/**
 * A `.ts` entry (tsx, vitest) runs through a one-line eval'd script that registers the tsx loader
 * inside the thread and then imports it: on Node 20, `--import tsx` in a worker's execArgv does
 * not apply to the worker's own modules.
 */
function workerScript(entry: WorkerEntry): { script: string; eval: boolean } {
  if (!entry.filename.endsWith('.ts')) return { script: entry.filename, eval: false };
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const target = pathToFileURL(entry.filename).href;
  return { script: `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(target)}); });`, eval: true };
}

/** The runner as compiled `runner-worker.js` (dist), or the `.ts` source under tsx/vitest. */
export function runnerWorkerEntry(): WorkerEntry {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const js = path.join(here, 'runner-worker.js');
  return { filename: fs.existsSync(js) ? js : path.join(here, 'runner-worker.ts') };
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
  const { script, eval: isEval } = workerScript(entry);
  const worker = new Worker(script, {
    eval: isEval,
    workerData: input,
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
