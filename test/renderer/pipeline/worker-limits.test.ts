import { describe, expect, it } from 'vitest';
import { WORKER_YOUNG_GENERATION_MB, workerResourceLimits, YOUNG_GENERATION_MAX_THREADS } from '../../../renderer/pool/render-pool.js';

describe('render workers: V8 limits', () => {
  it('start with a 512 MB old generation and, in a pool of up to four, a 96 MB young generation', () => {
    expect(WORKER_YOUNG_GENERATION_MB).toBe(96);
    expect(YOUNG_GENERATION_MAX_THREADS).toBe(4);
    for (const threads of [1, 2, 4]) expect(workerResourceLimits({}, threads)).toEqual({ maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 96 });
  });

  it('leave the young generation to V8 in a bigger pool (one worker per core of a big host), or when asked for 0', () => {
    expect(workerResourceLimits({}, 5)).toEqual({ maxOldGenerationSizeMb: 512 });
    expect(workerResourceLimits({}, 64)).toEqual({ maxOldGenerationSizeMb: 512 });
    expect(workerResourceLimits({ youngGenerationMb: 0 }, 2)).toEqual({ maxOldGenerationSizeMb: 512 });
  });

  it('take the caller\'s heap cap and young generation, whatever the pool', () => {
    expect(workerResourceLimits({ maxWorkerHeapMb: 256, youngGenerationMb: 32 }, 2)).toEqual({ maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 });
    expect(workerResourceLimits({ youngGenerationMb: 64 }, 16)).toEqual({ maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 64 });
  });
});
