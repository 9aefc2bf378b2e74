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

/** A compressed variant has its own strong validator: `"abc"` → `"abc-br"` / `"abc-gz"`. */
export function variantEtag(etag: string, encoding: 'br' | 'gzip'): string {
  return etag.replace(/"$/, encoding === 'br' ? '-br"' : '-gz"');
}
