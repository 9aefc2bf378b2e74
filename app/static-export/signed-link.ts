import crypto from 'node:crypto';
import type { Secrets } from '../secrets.js';
import type { BundleFormat, BundleInclude } from './files.js';

/** Name of the signing secret in <stateDir>/secrets (generated on first use, 0600). */
export const LINK_SECRET = 'bundle-links';

/** The download path of a job's bundle in a format: one canonical link per format. */
export const bundlePath = (jobId: string, format: BundleFormat = 'tar.gz', include: BundleInclude = 'public'): string =>
  `/v1/static-export/jobs/${jobId}/bundle.${include === 'all' ? 'all.' : ''}${format}`;

/**
 * What the signature covers: method, path and expiry, one per line. Only GET is ever signed;
 * HEAD is verified as GET (it is the same resource without the body), so one link serves both.
 */
function signingInput(path: string, expires: number): string {
  return `GET\n${path}\n${expires}`;
}

function hmac(key: Buffer, input: string): Buffer {
  return crypto.createHmac('sha256', key).update(input).digest();
}

export interface SignedLink {
  /** Path and query, to be put after the public base URL. */
  pathAndQuery: string;
  expiresAt: Date;
}

/** Sign a download link for a job's bundle that is valid until now + ttlSeconds. */
export function signBundleLink(secrets: Secrets, jobId: string, now: Date, ttlSeconds: number, format: BundleFormat = 'tar.gz', include: BundleInclude = 'public'): SignedLink {
  const { kid, key } = secrets.current(LINK_SECRET);
  const expires = Math.floor(now.getTime() / 1000) + ttlSeconds;
  const path = bundlePath(jobId, format, include);
  const signature = hmac(key, signingInput(path, expires)).toString('base64url');
  const query = new URLSearchParams({ expires: String(expires), kid, signature });
  return { pathAndQuery: `${path}?${query.toString()}`, expiresAt: new Date(expires * 1000) };
}

export type LinkCheck = { ok: true } | { ok: false; reason: string };

/** The only spelling of each parameter's value: what signBundleLink writes (no sign, no leading zero, no escapes). */
const LINK_PARAMS: Record<string, RegExp> = {
  expires: /^[1-9][0-9]{0,11}$/,
  kid: /^[0-9a-f]{1,64}$/,
  signature: /^[A-Za-z0-9_-]{1,128}$/,
};

const NOT_CANONICAL = 'Bundle link is not in the form it was issued in; use bundleUrl exactly as returned by POST /v1/static-export/jobs/{jobId}/bundle';

/**
 * A link has one spelling: the path exactly as signed (case, no trailing slash, no escapes) and a
 * raw query of exactly expires, kid and signature, each once, names and values as issued (order
 * free: proxies may sort a query). Decoded variants (`%73ignature`, `expires=0…`) would be other
 * URLs for the same credential: caches, logs and redaction would each see them differently.
 */
export function canonicalLink(rawPath: string, rawQuery: string, signedPath: string): { ok: true; query: Record<string, string> } | { ok: false; reason: string } {
  if (rawPath !== signedPath) return { ok: false, reason: NOT_CANONICAL };
  const query: Record<string, string> = {};
  for (const part of rawQuery === '' ? [] : rawQuery.split('&')) {
    const eq = part.indexOf('=');
    const name = eq === -1 ? part : part.slice(0, eq);
    const value = eq === -1 ? '' : part.slice(eq + 1);
    const pattern = Object.hasOwn(LINK_PARAMS, name) ? LINK_PARAMS[name] : undefined;
    if (!pattern || Object.hasOwn(query, name)) return { ok: false, reason: NOT_CANONICAL };
    if (!pattern.test(value)) return { ok: false, reason: 'Bundle link signature is invalid' };
    query[name] = value;
  }
  if (Object.keys(query).length !== Object.keys(LINK_PARAMS).length) {
    return { ok: false, reason: 'Bundle link is missing its expires, kid or signature parameter' };
  }
  return { ok: true, query };
}

/**
 * Check a presented link. Every failure is reported without saying which byte was wrong; the
 * comparison is constant-time. The expiry is checked after the signature, so an attacker cannot
 * learn anything from "expired" about a forged link.
 */
export function verifyBundleLink(secrets: Secrets, path: string, query: Record<string, unknown>, now: Date): LinkCheck {
  const { expires, kid, signature } = query;
  if (typeof expires !== 'string' || typeof kid !== 'string' || typeof signature !== 'string') {
    return { ok: false, reason: 'Bundle link is missing its expires, kid or signature parameter' };
  }
  if (!LINK_PARAMS.expires!.test(expires) || !LINK_PARAMS.kid!.test(kid) || !LINK_PARAMS.signature!.test(signature)) {
    return { ok: false, reason: 'Bundle link signature is invalid' };
  }
  const key = secrets.byKid(LINK_SECRET, kid);
  if (!key) return { ok: false, reason: 'Bundle link signature is invalid' };
  // Compare the encoded text, not decoded bytes: base64 decoding ignores trailing bits, so two
  // different strings can decode alike, and a link must have exactly one valid spelling.
  const expected = Buffer.from(hmac(key, signingInput(path, Number(expires))).toString('base64url'));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
    return { ok: false, reason: 'Bundle link signature is invalid' };
  }
  if (Number(expires) * 1000 <= now.getTime()) {
    return { ok: false, reason: 'Bundle link has expired; call POST /v1/static-export/jobs/{jobId}/bundle for a fresh one' };
  }
  return { ok: true };
}
