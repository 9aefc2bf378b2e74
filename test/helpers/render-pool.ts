import os from 'node:os';
import { createRenderPool, type RenderPool } from '../../renderer/index.js';

const pools = new Map<number, RenderPool>();

/**
 * A warm render pool of `threads` workers, shared by the suites of a vitest fork that only need a
 * pool to export with (each worker loads the renderer through tsx when it starts: about a second
 * of CPU per worker, per pool). Its close() does nothing; the fork's exit ends the workers. Suites
 * that watch the pool itself (its errors, aborts that terminate a worker) build their own.
 * The export thread shares one pool among all its exports in the same way (export-worker.ts).
 */
export function sharedRenderPool(threads: number = os.availableParallelism()): RenderPool {
  let shared = pools.get(threads);
  if (!shared) {
    const pool = createRenderPool({ threads });
    shared = {
      threads: pool.threads,
      run: (task, options) => pool.run(task, options),
      ...(pool.compileTailwind ? { compileTailwind: pool.compileTailwind } : {}),
      close: async () => undefined,
    };
    pools.set(threads, shared);
  }
  return shared;
}
