import { parentPort, workerData } from 'node:worker_threads';
import { parseNdjson, type ImportWorkerData } from './import-parse.js';

/** Batches in flight before the parser waits for the writer: bounds memory when SQLite is slower. */
const IN_FLIGHT = 2;

/**
 * The import's parsing thread (app/analytics/import.ts starts it for a large file): parsing,
 * validation and the session rules are about half of the import's CPU time; here they run
 * beside SQLite instead of before it. The writer answers every batch with a message.
 */
if (parentPort) {
  const port = parentPort;
  let inFlight = 0;
  let wake: (() => void) | null = null;
  port.on('message', () => {
    inFlight--;
    wake?.();
    wake = null;
  });
  parseNdjson(workerData as ImportWorkerData, async (msg, transfer) => {
    while (inFlight >= IN_FLIGHT) await new Promise<void>((resolve) => (wake = resolve));
    if (msg.type === 'batch') inFlight++;
    port.postMessage(msg, transfer);
  }).catch((err: unknown) => {
    // Rethrown outside the promise: the writer sees it as the worker's 'error' event.
    setImmediate(() => {
      throw err;
    });
  });
}
