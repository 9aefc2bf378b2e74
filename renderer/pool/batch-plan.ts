/** Where one batch's pages sit in the plan: pages[start, end). */
export interface BatchRange {
  start: number;
  end: number;
}

/**
 * The export's batches: `size` pages each, then the last two batches' worth per thread cut in
 * quarters. Batches of one size let the worker that finishes first sit idle while the other still
 * rendered its last batch (63 pages, about 170 ms, on the bench's 1,000-operation site); with
 * quarter batches at the end that export takes about 8 % less wall time (docs/api-reference.md,
 * "Eighth pass").
 */
export function batchRanges(pages: number, size: number, threads: number): BatchRange[] {
  const tailStart = Math.max(0, pages - threads * 2 * size);
  return [...rangesOf(0, tailStart, size), ...rangesOf(tailStart, pages, Math.max(1, Math.ceil(size / 4)))];
}

/** Every batch `size` pages (an export that asked for a batch size). */
export function evenBatchRanges(pages: number, size: number): BatchRange[] {
  return rangesOf(0, pages, size);
}

/** [from, to) in ranges of `size`, the last one shorter when it must be. */
function rangesOf(from: number, to: number, size: number): BatchRange[] {
  const out: BatchRange[] = [];
  for (let start = from; start < to; start += size) out.push({ start, end: Math.min(start + size, to) });
  return out;
}
