import type { OutgoingHttpHeaders } from 'node:http';

/** The headers every answer of the site listener carries (docs/loader.md, serving rules). */
export function securityHeaders(contentSecurityPolicy: string): OutgoingHttpHeaders {
  return {
    'content-security-policy': contentSecurityPolicy,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'SAMEORIGIN',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
}

/**
 * The operator's policy with `connect-src` extended by exactly `origins` (the served project's
 * playground origins, docs/api-reference.md): appended to `connect-src` when the policy has one,
 * else a `connect-src` made of `default-src`'s sources plus them (so nothing else loosens); a
 * policy with neither already lets pages connect anywhere and is left as it is.
 */
export function withConnectOrigins(policy: string, origins: readonly string[]): string {
  if (origins.length === 0) return policy;
  const directives = policy.split(';').map((d) => d.trim()).filter(Boolean);
  const nameOf = (d: string) => d.split(/\s+/)[0]!.toLowerCase();
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

/** A compressed variant has its own strong validator: `"abc"` → `"abc-br"` / `"abc-gz"`. */
export function variantEtag(etag: string, encoding: 'br' | 'gzip'): string {
  return etag.replace(/"$/, encoding === 'br' ? '-br"' : '-gz"');
}
