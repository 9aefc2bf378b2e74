/**
 * The grouping form of a search term (DESIGN 3.3): Unicode NFC, trimmed, inner whitespace
 * collapsed to one space, case-folded. "Install  on RHEL " and "install on rhel" are one term.
 */
export function normaliseQuery(query: string): string {
  return query.normalize('NFC').trim().replace(/\s+/gu, ' ').toLowerCase();
}

/** Days since the Unix epoch of a UTC instant: the rollups' day key. */
export const DAY_MS = 86_400_000;
export const dayOf = (ms: number): number => Math.floor(ms / DAY_MS);
