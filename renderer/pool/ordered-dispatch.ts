/**
 * Runs tasks 0 … count−1 on a few lanes, started strictly in order, and never starts one more
 * than `ahead` past the oldest result not yet consumed.
 *
 * The export consumes batch results in plan order (deterministic zip, index and warnings). Handing
 * every batch to the pool at once let the pool start them out of order (seen: batch 3 of 47
 * started 4 s late, after most even-numbered ones had finished), and every batch finished
 * meanwhile waited in memory for it: on the 10,000-page bench, 92 batch buffers (112 MB) at
 * once, and the zip and the index stalled until the end.
 */
export class OrderedDispatcher {
  private next = 0;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly count: number,
    private readonly opts: { lanes: number; ahead: number; consumed: () => number; run: (index: number) => Promise<void> },
  ) {}

  /** Call when the consumer has moved on: lanes held back by `ahead` look again. */
  advanced(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const wake of waiting) wake();
  }

  async runAll(): Promise<void> {
    const lanes = Math.max(1, Math.min(this.opts.lanes, this.count));
    await Promise.all(Array.from({ length: lanes }, () => this.lane()));
  }

  private async lane(): Promise<void> {
    for (;;) {
      const index = this.next;
      if (index >= this.count) return;
      // The oldest unconsumed task was started before this one, so it is running: it will advance.
      if (index - this.opts.consumed() >= this.opts.ahead) {
        await new Promise<void>((wake) => this.waiters.push(wake));
        continue;
      }
      this.next++;
      await this.opts.run(index);
    }
  }
}
