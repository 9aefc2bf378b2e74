/**
 * Times as the console shows them: relative ("3 min ago", "in 2 days"), with the exact UTC time
 * on hover (`<time title>`) and in the CSV. Computed when the page is rendered, on the
 * appliance's clock, so a screenshot or a test sees the same text the operator did.
 */

const UNITS: [limitSeconds: number, seconds: number, unit: string][] = [
  [60, 1, 's'],
  [3600, 60, 'min'],
  [86_400, 3600, 'h'],
  [30 * 86_400, 86_400, 'day'],
  [365 * 86_400, 30 * 86_400, 'month'],
  [Infinity, 365 * 86_400, 'year'],
];

/** "just now", "5 min ago", "in 3 days", "2 months ago". */
export function relativeTime(iso: string, now: Date): string {
  const diff = (now.getTime() - Date.parse(iso)) / 1000;
  const abs = Math.abs(diff);
  if (abs < 10) return 'just now';
  const [, size, unit] = UNITS.find(([limit]) => abs < limit)!;
  const n = Math.floor(abs / size);
  const label = unit === 'day' || unit === 'month' || unit === 'year' ? `${unit}${n === 1 ? '' : 's'}` : unit;
  return diff >= 0 ? `${n} ${label} ago` : `in ${n} ${label}`;
}

/** "2026-12-03 07:41:02 UTC": the exact time, as a person reads it. */
export function exactTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** A table cell (table.ts) for a time, or null (shown as —) when there is none. */
export function timeCell(iso: string | null | undefined, now: Date): { time: string; text: string; exact: string } | null {
  if (!iso || Number.isNaN(Date.parse(iso))) return null;
  return { time: iso, text: relativeTime(iso, now), exact: exactTime(iso) };
}
