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
  const out: BatchRange[] = [];
  const small = Math.max(1, Math.ceil(size / 4));
  const tailStart = Math.max(0, pages - threads * 2 * size);
  for (let start = 0; start < tailStart; start += size) out.push({ start, end: Math.min(start + size, tailStart) });
  for (let start = tailStart; start < pages; start += small) out.push({ start, end: Math.min(start + small, pages) });
  return out;
}

/** Every batch `size` pages (an export that asked for a batch size). */
export function evenBatchRanges(pages: number, size: number): BatchRange[] {
  const out: BatchRange[] = [];
  for (let start = 0; start < pages; start += size) out.push({ start, end: Math.min(start + size, pages) });
  return out;
}
