// Starts the sandbox thread from the TypeScript source (tests, `node --import tsx`): a worker's
// `--import tsx` does not reach its entry module on Node 20, so the loader is registered here first.
// Compiled builds start dist/renderer/islands/sandbox-thread.js directly.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
