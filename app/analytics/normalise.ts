/** Printable ASCII words separated by single spaces: already trimmed, collapsed and NFC. */
const SIMPLE_ASCII = /^[!-~]+(?: [!-~]+)*$/;

/**
 * The grouping form of a search term (DESIGN 3.3): Unicode NFC, trimmed, inner whitespace
 * collapsed to one space, case-folded. "Install  on RHEL " and "install on rhel" are one term.
 * Most queries are plain ASCII words: for them only the case changes, and skipping the other
 * three passes matters at ten million imported lines.
 */
export function normaliseQuery(query: string): string {
  if (SIMPLE_ASCII.test(query)) return query.toLowerCase();
  return query.normalize('NFC').trim().replace(/\s+/gu, ' ').toLowerCase();
}

/** Days since the Unix epoch of a UTC instant: the rollups' day key. */
export const DAY_MS = 86_400_000;
export const dayOf = (ms: number): number => Math.floor(ms / DAY_MS);
