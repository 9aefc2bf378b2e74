import type { Request, Response } from 'express';

/** Cookie header → name/value pairs (first occurrence wins; values are not decoded: ours are base64url). */
export function readCookies(req: Request): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (!out.has(name)) out.set(name, part.slice(eq + 1).trim());
  }
  return out;
}

export interface CookieOptions {
  path: string;
  sameSite: 'Strict' | 'Lax';
  /** Seconds; 0 deletes the cookie. Absent: a browser-session cookie. */
  maxAge?: number;
}

/**
 * Every console cookie is HttpOnly, and Secure when the request arrived over TLS (directly or
 * through a proxy the admin.trustProxy setting trusts): a plain-HTTP appliance on a lab network
 * still works, a TLS one never sends the cookie in clear.
 */
export function setCookie(req: Request, res: Response, name: string, value: string, opts: CookieOptions): void {
  const parts = [`${name}=${value}`, `Path=${opts.path}`, 'HttpOnly', `SameSite=${opts.sameSite}`];
  if (opts.maxAge !== undefined) parts.push(`Max-Age=${opts.maxAge}`);
  if (req.secure) parts.push('Secure');
  res.append('Set-Cookie', parts.join('; '));
}

export const SESSION_COOKIE = 'da_console';
/** Double-submit token of the forms shown before a session exists (the sign-in form). */
export const PRE_SESSION_COOKIE = 'da_console_pre';
/** state, nonce and PKCE verifier of one SSO attempt, found by this cookie's random id. */
export const SSO_COOKIE = 'da_console_sso';
