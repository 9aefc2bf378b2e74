import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { WatchdogData, WatchdogMessage } from './watchdog.js';

/**
 * The watchdog thread: it runs whatever the main thread is doing. Signals reach only the main
 * thread, so a main thread stuck in a loop would never honour SIGTERM; this thread ends the
 * process when the main thread has not beaten for `stallMs`, when a stop has not finished by its
 * deadline, and (under npm) tells the main thread to stop when the parent process is gone.
 */
const { beat, stallMs, parentPid, log } = workerData as WatchdogData;
const beats = new BigInt64Array(beat);
let deadline: number | undefined;
let parentGoneSent = false;

/** One JSON log line straight to the log's file descriptor: the main thread cannot write it now. */
function line(level: number, msg: string, extra: Record<string, unknown>): void {
  try {
    fs.writeSync(log, `${JSON.stringify({ level, time: Date.now(), pid: process.pid, ...extra, msg })}\n`);
  } catch {
    // nowhere left to say it
  }
}

function kill(msg: string, extra: Record<string, unknown>): never {
  line(60, msg, extra);
  // SIGKILL, not exit(): process.exit() in a worker ends only the worker.
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable');
}

parentPort!.on('message', (m: WatchdogMessage) => {
  if (m.type === 'stopping') deadline = Date.now() + m.timeoutMs;
});

setInterval(() => {
  const now = Date.now();
  const silentMs = now - Number(Atomics.load(beats, 0));
  if (stallMs > 0 && silentMs > stallMs) kill('the main thread has not answered; ending the process so that it can be restarted', { code: 'MAIN_THREAD_STALLED', silentMs, stallMs });
  if (deadline !== undefined && now > deadline) kill('graceful shutdown did not finish in time; ending the process', { code: 'SHUTDOWN_TIMEOUT' });
  if (parentPid !== undefined && !parentGoneSent && process.ppid !== parentPid) {
    parentGoneSent = true;
    line(40, 'the parent process (npm) has exited; stopping with it', { code: 'PARENT_EXITED', parentPid });
    parentPort!.postMessage({ type: 'parent-gone' } satisfies WatchdogMessage);
  }
}, 250);
