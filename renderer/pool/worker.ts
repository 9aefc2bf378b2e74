import { Piscina } from 'piscina';
import type { RenderBatchTask } from './batch.js';
import { prepareSandbox } from '../islands/sandbox.js';
import { renderBatch } from './render-batch.js';

export { compileTailwind } from '../tailwind/compile.js';

/**
 * piscina entry: render one batch and hand its bytes back by transfer (no copy). The wrapper
 * object is piscina's "movable" protocol: the value to return plus the list of buffers to transfer.
 */
export default async function renderBatchTask(task: RenderBatchTask): Promise<unknown> {
  // Loaded once per worker (about 25 ms), before the first page that may pre-render a component.
  await prepareSandbox();
  const result = renderBatch(task);
  return Piscina.move({
    [Piscina.transferableSymbol]: [result.buffer],
    [Piscina.valueSymbol]: result,
  } as unknown as ArrayBuffer);
}
