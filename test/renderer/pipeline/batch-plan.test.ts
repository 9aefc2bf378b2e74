import { describe, expect, it } from 'vitest';
import { batchRanges, evenBatchRanges, type BatchRange } from '../../../renderer/pool/batch-plan.js';

const sizes = (ranges: BatchRange[]): number[] => ranges.map((r) => r.end - r.start);

/** The ranges cover 0…pages once, in order, none empty. */
function expectTiling(ranges: BatchRange[], pages: number): void {
  let at = 0;
  for (const r of ranges) {
    expect(r.start).toBe(at);
    expect(r.end).toBeGreaterThan(r.start);
    at = r.end;
  }
  expect(at).toBe(pages);
}

describe('the export\'s batches', () => {
  it('are `size` pages, then the last two batches\' worth per thread in quarters', () => {
    const ranges = batchRanges(1001, 63, 2);
    expectTiling(ranges, 1001);
    // 1001 − 4 × 63 = 749 pages in batches of 63 (the last one 56), then 252 in batches of 16.
    expect(sizes(ranges)).toEqual([...Array(11).fill(63), 56, ...Array(15).fill(16), 12]);
  });

  it('cover every page of any site, whatever the threads', () => {
    for (const pages of [0, 1, 3, 4, 17, 64, 65, 500, 10_000]) {
      for (const threads of [1, 2, 8]) {
        const size = Math.min(64, Math.max(4, Math.ceil(pages / (threads * 8))));
        const ranges = batchRanges(pages, size, threads);
        expectTiling(ranges, pages);
        expect(Math.max(0, ...sizes(ranges))).toBeLessThanOrEqual(size);
        // The last ones are never more than a quarter batch, so no worker waits long for another.
        for (const s of sizes(ranges).slice(-threads * 2)) expect(s).toBeLessThanOrEqual(Math.ceil(size / 4));
      }
    }
  });

  it('are all `size` pages when an export asks for a batch size', () => {
    expect(sizes(evenBatchRanges(10, 3))).toEqual([3, 3, 3, 1]);
    expectTiling(evenBatchRanges(10, 3), 10);
    expect(evenBatchRanges(0, 3)).toEqual([]);
  });
});
