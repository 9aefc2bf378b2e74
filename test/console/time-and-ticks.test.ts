/** The console's relative times and count axes (issue 38 point 10). */
import { describe, expect, it } from 'vitest';
import { countTicks } from '../../app/console/svg-chart.js';
import { exactTime, relativeTime, timeCell } from '../../app/console/time.js';

const now = new Date('2026-12-03T12:00:00.000Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString();

describe('relative times', () => {
  it('reads as a person says it, past and future, with the exact UTC time beside it', () => {
    expect(relativeTime(ago(3), now)).toBe('just now');
    expect(relativeTime(ago(45), now)).toBe('45 s ago');
    expect(relativeTime(ago(5 * 60 + 30), now)).toBe('5 min ago');
    expect(relativeTime(ago(3 * 3600), now)).toBe('3 h ago');
    expect(relativeTime(ago(86_400), now)).toBe('1 day ago');
    expect(relativeTime(ago(40 * 86_400), now)).toBe('1 month ago');
    expect(relativeTime(ago(800 * 86_400), now)).toBe('2 years ago');
    expect(relativeTime(ago(-2 * 86_400), now)).toBe('in 2 days');
    expect(exactTime('2026-12-03T07:41:02.123Z')).toBe('2026-12-03 07:41:02 UTC');
    expect(timeCell(ago(120), now)).toEqual({ time: ago(120), text: '2 min ago', exact: exactTime(ago(120)) });
    expect(timeCell(null, now)).toBeNull();
    expect(timeCell('not a time', now)).toBeNull();
  });
});

describe('count axes', () => {
  it('have whole-number ticks only, from 0 to the first tick at or above the largest count', () => {
    expect(countTicks(0)).toEqual([0, 1]);
    expect(countTicks(1)).toEqual([0, 1]);
    expect(countTicks(3)).toEqual([0, 1, 2, 3]);
    expect(countTicks(5)).toEqual([0, 2, 4, 6]);
    expect(countTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(countTicks(37)).toEqual([0, 10, 20, 30, 40]);
    expect(countTicks(1234)).toEqual([0, 500, 1000, 1500]);
    for (let max = 0; max <= 2000; max += 7) {
      const ticks = countTicks(max);
      expect(ticks.every(Number.isInteger)).toBe(true);
      expect(ticks.at(-1)!).toBeGreaterThanOrEqual(max);
      expect(ticks.length).toBeLessThanOrEqual(6);
    }
  });
});
