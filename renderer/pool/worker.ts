import type { RenderBatchTask } from './batch.js';
import { prepareSandbox } from '../islands/sandbox.js';
import { renderBatch } from './render-batch.js';

export { compileTailwind } from '../tailwind/compile.js';

/**
 * piscina entry: render one batch and hand its bytes back.
 *
 * The batch's buffer is copied by the structured clone, not transferred. Measured on the bench's
 * 25,000-page site (issue 18): transferred buffers are not counted by the main thread's allocator,
 * so V8 saw no external-memory pressure and left the dead ones uncollected (about 7 KB a page, 190
 * MB by the end of rendering; peak 1,046 MB); copied ones are, and are collected as they die (peak
 * 918 MB). The copy is a memcpy of about half a megabyte per batch.
 */
export default async function renderBatchTask(task: RenderBatchTask): Promise<unknown> {
  // Loaded once per worker (about 25 ms), before the first page that may pre-render a component.
  await prepareSandbox();
  return renderBatch(task);
}
