import { Piscina } from 'piscina';
import type { RenderBatchTask } from './batch.js';
import { renderBatch } from './render-batch.js';

export { compileTailwind } from '../tailwind/compile.js';

/**
 * piscina entry: render one batch and hand its bytes back by transfer (no copy). The wrapper
 * object is piscina's "movable" protocol: the value to return plus the list of buffers to transfer.
 */
export default function renderBatchTask(task: RenderBatchTask): unknown {
  const result = renderBatch(task);
  return Piscina.move({
    [Piscina.transferableSymbol]: [result.buffer],
    [Piscina.valueSymbol]: result,
  } as unknown as ArrayBuffer);
}
