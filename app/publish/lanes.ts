import type { PublishRecord } from '../../data/stores/publishes.js';

interface Waiting {
  record: PublishRecord;
  work: (record: PublishRecord) => Promise<void>;
}

/**
 * One lane per site (a project's published site, or one preview): work runs one at a time, in
 * order. A publish asked for while another waits in the lane is the same publish (it will read
 * the newest source when it starts): the trigger coalesces into that waiting follow-up.
 */
export function createLanes() {
  const lanes = new Map<string, { running: Promise<void> | undefined; waiting: Waiting[] }>();

  const pump = (key: string) => {
    const lane = lanes.get(key);
    if (!lane || lane.running) return;
    const next = lane.waiting.shift();
    if (!next) {
      lanes.delete(key);
      return;
    }
    lane.running = next
      .work(next.record)
      .catch(() => undefined)
      .finally(() => {
        lane.running = undefined;
        pump(key);
      });
  };

  return {
    /**
     * Queue `work` in the lane. With `coalesce`, a waiting entry for which it returns true is
     * reused (its record is returned and nothing new is queued).
     */
    enqueue(key: string, create: () => PublishRecord, work: Waiting['work'], coalesce?: (waiting: PublishRecord) => boolean): PublishRecord {
      let lane = lanes.get(key);
      if (!lane) lanes.set(key, (lane = { running: undefined, waiting: [] }));
      const same = coalesce ? lane.waiting.find((w) => coalesce(w.record)) : undefined;
      if (same) return same.record;
      const record = create();
      lane.waiting.push({ record, work });
      pump(key);
      return record;
    },
    busy(key: string): boolean {
      return lanes.has(key);
    },
    /** Resolves when every lane is empty. */
    async idle(): Promise<void> {
      while (lanes.size) await Promise.all([...lanes.values()].map((l) => l.running));
    },
  };
}
