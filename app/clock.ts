/** Time source passed to everything that compares against "now", so tests can move it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests set and advance by hand. */
export function manualClock(start: Date | string = '2026-11-01T00:00:00.000Z') {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    set(d: Date | string) {
      t = new Date(d).getTime();
    },
    advance(ms: number) {
      t += ms;
    },
  };
}

export type ManualClock = ReturnType<typeof manualClock>;
