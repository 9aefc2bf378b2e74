import type { ExportProgress } from '../../renderer/index.js';

/**
 * Maps the renderer's stages onto one number 0–100: rendering pages is most of the work and
 * takes 2–90; index, write and pack share the rest; 100 only once the bundle is in place.
 * The result never goes down, whatever order reports arrive in.
 */
const STAGE_FLOOR: Record<ExportProgress['stage'], number> = {
  load: 0,
  plan: 1,
  render: 2,
  index: 91,
  write: 93,
  pack: 95,
  done: 99,
};
const RENDER_SPAN = 88;

export function createProgressTracker() {
  let progress = 0;
  let pageCount = 0;
  return {
    update(p: ExportProgress): { progress: number; pageCount: number } {
      let value = STAGE_FLOOR[p.stage];
      if (p.stage === 'render' && p.pagesPlanned > 0) value += (RENDER_SPAN * Math.min(p.pagesDone, p.pagesPlanned)) / p.pagesPlanned;
      progress = Math.max(progress, Math.round(value * 10) / 10);
      pageCount = Math.max(pageCount, p.pagesDone);
      return { progress, pageCount };
    },
  };
}

/**
 * Calls `write` at most once per `intervalMs` (pollers read SQLite; a 10,000-page export must
 * not turn into 10,000 writes), and always flushes the latest value after a quiet spell, so a
 * long pack stage does not show the last render figure.
 */
export function throttle<T>(intervalMs: number, write: (value: T) => void) {
  let last = 0;
  let pending: { value: T } | undefined;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    if (!pending) return;
    const { value } = pending;
    pending = undefined;
    last = performance.now();
    write(value);
  };
  return {
    push(value: T): void {
      pending = { value };
      const wait = last + intervalMs - performance.now();
      if (wait <= 0) flush();
      else timer ??= setTimeout(flush, wait);
    },
    /** Drop anything pending (the job is over; its final state is written by the caller). */
    cancel(): void {
      if (timer) clearTimeout(timer);
      timer = undefined;
      pending = undefined;
    },
  };
}
