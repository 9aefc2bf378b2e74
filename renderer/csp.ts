/**
 * The site's Content-Security-Policy: one builder for the header the appliance's site listener
 * sends and the `<meta http-equiv>` every exported page carries, so a bundle copied to any static
 * host keeps the air-gap guarantee (issue 39 class 10). Served by the appliance, a page gets both
 * and the browser enforces both: the two must allow the same things, so both come from here.
 */

/** `site.contentSecurityPolicy`'s default (config/schema.ts): same-origin everything. */
export const DEFAULT_SITE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'self'; form-action 'self'";

/** Directives a `<meta>` policy cannot carry (CSP Level 3 §3.3): browsers ignore them there, with a console warning. */
const HEADER_ONLY = new Set(['frame-ancestors', 'report-uri', 'report-to', 'sandbox']);

const directivesOf = (policy: string): string[] => policy.split(';').map((d) => d.trim()).filter(Boolean);
const nameOf = (d: string): string => d.split(/\s+/)[0]!.toLowerCase();

/**
 * The policy with `connect-src` extended by exactly `origins` (the served project's playground
 * origins, docs/api-reference.md): appended to `connect-src` when the policy has one, else a
 * `connect-src` made of `default-src`'s sources plus them (so nothing else loosens); a policy
 * with neither already lets pages connect anywhere and is left as it is.
 */
export function withConnectOrigins(policy: string, origins: readonly string[]): string {
  if (origins.length === 0) return policy;
  const directives = directivesOf(policy);
  const add = (sources: string[]) => [...sources, ...origins.filter((o) => !sources.includes(o))];
  const connect = directives.findIndex((d) => nameOf(d) === 'connect-src');
  if (connect >= 0) {
    const sources = directives[connect]!.split(/\s+/).slice(1).filter((s) => s !== "'none'");
    directives[connect] = ['connect-src', ...add(sources)].join(' ');
    return directives.join('; ');
  }
  const fallback = directives.find((d) => nameOf(d) === 'default-src');
  if (!fallback) return policy;
  const sources = fallback.split(/\s+/).slice(1).filter((s) => s !== "'none'");
  return [...directives, ['connect-src', ...add(sources)].join(' ')].join('; ');
}

/** The policy as a page's `<meta http-equiv="Content-Security-Policy">` can hold it: header-only directives left to the header. */
export function metaPolicy(policy: string): string {
  return directivesOf(policy).filter((d) => !HEADER_ONLY.has(nameOf(d))).join('; ');
}
