/**
 * The `redirect` a sign-in carries, as a path on this site, or `/`. Only a same-site path is
 * kept: never `//other.host`, `/\other.host` (browsers read it as `//`), a scheme, or control
 * characters — an open redirect would let a phishing link pass through the docs' sign-in.
 */
export function safeRedirect(value: unknown): string {
  if (typeof value !== 'string' || value.length > 2048) return '/';
  if (!value.startsWith('/') || value.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(value)) return '/';
  try {
    const u = new URL(value, 'http://site.invalid');
    if (u.origin !== 'http://site.invalid') return '/';
    return `${u.pathname}${u.search}${u.hash}`;
  } catch {
    return '/';
  }
}

/** `url` with `redirect=<path>` added to its query (Mintlify: `https://foo.com/docs-login?redirect=%2Fquickstart`). */
export function withRedirect(url: string, path: string): string {
  const u = new URL(url);
  u.searchParams.set('redirect', path);
  return u.href;
}
