/**
 * The export's batch dispatcher: batches start in plan order on a few lanes, and none starts more
 * than `ahead` past the oldest result not yet consumed, however slow that one is.
 */
import { describe, expect, it } from 'vitest';
import { OrderedDispatcher } from '../../../renderer/pool/ordered-dispatch.js';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('OrderedDispatcher', () => {
  it('starts every task once, in order, with at most `lanes` running', async () => {
    const started: number[] = [];
    let running = 0;
    let most = 0;
    let consumed = 0;
    const d: OrderedDispatcher = new OrderedDispatcher(50, {
      lanes: 3,
      ahead: 100,
      consumed: () => consumed,
      run: async (i) => {
        started.push(i);
        most = Math.max(most, ++running);
        await tick();
        running--;
        consumed++;
        d.advanced();
      },
    });
    await d.runAll();
    expect(started).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(most).toBe(3);
  });

  it('holds the lanes back while the oldest task is slow, then goes on', async () => {
    const done = new Set<number>();
    let consumed = 0;
    let furthest = 0;
    let release: () => void = () => undefined;
    const slow = new Promise<void>((r) => (release = r));
    const d: OrderedDispatcher = new OrderedDispatcher(40, {
      lanes: 4,
      ahead: 6,
      consumed: () => consumed,
      run: async (i) => {
        furthest = Math.max(furthest, i);
        if (i === 0) await slow;
        else await tick();
        done.add(i);
        while (done.has(consumed)) consumed++;
        d.advanced();
      },
    });
    const all = d.runAll();
    for (let k = 0; k < 20; k++) await tick();
    // Task 0 is still running: nothing past 0 + ahead − 1 was started.
    expect(furthest).toBe(5);
    release();
    await all;
    expect(consumed).toBe(40);
  });

  it('runs nothing for no tasks', async () => {
    const d = new OrderedDispatcher(0, { lanes: 2, ahead: 4, consumed: () => 0, run: () => Promise.reject(new Error('no task')) });
    await expect(d.runAll()).resolves.toBeUndefined();
  });
});
