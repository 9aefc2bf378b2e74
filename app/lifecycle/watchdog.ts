import { startSourceWorker } from '../core/source-worker.js';

export interface WatchdogData {
  /** BigInt64 [0]: the main thread's last beat, in milliseconds since the epoch. */
  beat: SharedArrayBuffer;
  stallMs: number;
  /** Set when the process should stop with its parent (run by npm): the parent's pid at start. */
  parentPid: number | undefined;
  /** File descriptor of the log (stdout). */
  log: number;
}

export type WatchdogMessage = { type: 'stopping'; timeoutMs: number } | { type: 'parent-gone' };

export interface Watchdog {
  /** A stop has begun: the watchdog ends the process if it is not over in `timeoutMs`. */
  stopping(timeoutMs: number): void;
  close(): Promise<void>;
}

/**
 * Run by npm (`npm start`, `npx`): npm sets npm_lifecycle_event for the scripts it runs, and it
 * may exit on a signal before its child does; the server then stops with it instead of holding
 * its ports and state dir with no one to stop it.
 */
export function runByNpm(env: NodeJS.ProcessEnv): boolean {
  return !!env['npm_lifecycle_event'] || !!env['npm_execpath'];
}

/**
 * Start the watchdog thread (app/lifecycle/watchdog-worker.ts) for `serve`: the main thread beats
 * every 250 ms into shared memory; `onParentGone` runs when the parent process exits.
 */
export function startWatchdog(opts: { stallMs: number; stopWithParent: boolean; onParentGone: () => void }): Watchdog {
  const beat = new SharedArrayBuffer(8);
  const beats = new BigInt64Array(beat);
  const tick = () => Atomics.store(beats, 0, BigInt(Date.now()));
  tick();
  const timer = setInterval(tick, 250);
  timer.unref();
  const data: WatchdogData = { beat, stallMs: opts.stallMs, parentPid: opts.stopWithParent ? process.ppid : undefined, log: 1 };
  const worker = startSourceWorker(import.meta.url, 'watchdog-worker', { workerData: data, stdout: false, stderr: false });
  worker.unref();
  worker.on('message', (m: WatchdogMessage) => {
    if (m.type === 'parent-gone') opts.onParentGone();
  });
  return {
    stopping: (timeoutMs) => worker.postMessage({ type: 'stopping', timeoutMs } satisfies WatchdogMessage),
    async close() {
      clearInterval(timer);
      await worker.terminate();
    },
  };
}
