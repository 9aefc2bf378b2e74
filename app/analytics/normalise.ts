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

/**
 * The page a click landed on, as the canonical extensionless path: bundles link pages as `/x/`
 * (a directory index a plain static server finds) while the appliance also answers `/x`, so
 * `/x/`, `/x/index.html` and `/x` are one page. The root stays `/`.
 */
export function normalisePagePath(path: string): string {
  let p = path.replace(/\/index\.html$/, '/');
  while (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  return p;
}

/** Days since the Unix epoch of a UTC instant: the rollups' day key. */
export const DAY_MS = 86_400_000;
export const dayOf = (ms: number): number => Math.floor(ms / DAY_MS);
