import { describe, expect, it } from 'vitest';
import { WORKER_YOUNG_GENERATION_MB, workerResourceLimits } from '../../../renderer/pool/render-pool.js';

describe('render workers: V8 limits', () => {
  it('start with a 512 MB old generation and a young generation of WORKER_YOUNG_GENERATION_MB', () => {
    expect(WORKER_YOUNG_GENERATION_MB).toBe(96);
    expect(workerResourceLimits({})).toEqual({ maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 96 });
  });

  it('take the caller\'s heap cap and young generation', () => {
    expect(workerResourceLimits({ maxWorkerHeapMb: 256, youngGenerationMb: 32 })).toEqual({ maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 });
  });

  it('leave the young generation to V8 when asked for 0', () => {
    expect(workerResourceLimits({ youngGenerationMb: 0 })).toEqual({ maxOldGenerationSizeMb: 512 });
  });
});
