/**
 * Worker thread entry of an agent run. A failure here is reported as the run's outcome; a crash
 * (uncaught error, out of memory) ends only this thread, and the host fails the job with it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { RunEvent, RunInput, RunOutcome } from './run-protocol.js';
import { runJob } from './run-job.js';

const port = parentPort;
if (!port) throw new Error('runner-worker must run in a worker thread');
const emit = (e: RunEvent) => port.postMessage(e);

let outcome: RunOutcome;
try {
  outcome = await runJob(workerData as RunInput, emit);
} catch (err) {
  outcome = { ok: false, reason: `the runner failed: ${(err as Error).message ?? String(err)}` };
}
emit({ type: 'outcome', outcome });
