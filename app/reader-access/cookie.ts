import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Request, Response } from 'express';
import type { Secrets } from '../secrets.js';
import type { ApiPlaygroundInputs } from './types.js';
import type { ReaderMethod } from '../../data/stores/reader-sessions.js';

export const READER_COOKIE = 'da_reader';
/** The secret (ctx.secrets) the cookie is sealed with; a replica given the same file opens it. */
export const READER_SECRET = 'reader-session';

/** What the cookie carries: enough for the site to answer without the database (a replica). */
export interface SealedSession {
  /** The session id (256 random bits); the database keys its row by the id's SHA-256. */
  sid: string;
  m: ReaderMethod;
  g: string[];
  c: Record<string, unknown>;
  a?: ApiPlaygroundInputs;
  /** Created, and the absolute end: milliseconds since the epoch. */
  iat: number;
  exp: number;
}

/** Browsers keep cookies up to 4096 bytes with name and attributes; past this the user data is refused at sign-in. */
export const MAX_COOKIE_VALUE = 3800;

const aad = (projectId: string) => Buffer.from(`da-reader:v1:${projectId}`);

/**
 * `v1.<kid>.<base64url(iv ‖ ciphertext ‖ tag)>`: AES-256-GCM under the appliance's reader-session
 * secret, the project id as associated data (a cookie of one project's site opens for no other).
 * Opaque to the browser, tamper-evident, and verifiable with the key file alone.
 */
export function seal(secrets: Secrets, projectId: string, s: SealedSession): string {
  const { kid, key } = secrets.current(READER_SECRET);
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad(projectId));
  const body = Buffer.concat([cipher.update(JSON.stringify(s), 'utf8'), cipher.final()]);
  return `v1.${kid}.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
}

/** The sealed session, or null (not ours, another project's, tampered with, a key since deleted). */
export function open(secrets: Secrets, projectId: string, value: string): SealedSession | null {
  const m = /^v1\.([0-9a-f]{1,32})\.([A-Za-z0-9_-]{40,})$/.exec(value);
  if (!m) return null;
  const key = secrets.byKid(READER_SECRET, m[1]!);
  if (!key) return null;
  const raw = Buffer.from(m[2]!, 'base64url');
  if (raw.length < 12 + 16 + 2) return null;
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAAD(aad(projectId));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    const text = Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString('utf8');
    const s = JSON.parse(text) as SealedSession;
    return typeof s.sid === 'string' && typeof s.exp === 'number' ? s : null;
  } catch {
    return null;
  }
}

/** The reader cookie's value from a raw request (the site's hot path asks without Express). */
export function readerCookie(req: IncomingMessage): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === READER_COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * HttpOnly (page scripts never see it: personalization asks /_/reader/user), SameSite=Lax (it
 * must come along when the portal or the identity provider sends the reader back), Path=/, and
 * Secure when the request reached us over TLS — directly or through a proxy admin.trustProxy
 * trusts (req.secure, as request-origin.ts reads the scheme). Max-Age: the session's absolute end.
 */
export function setReaderCookie(req: Request, res: Response, value: string, maxAgeSeconds: number): void {
  const parts = [`${READER_COOKIE}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`];
  if (req.secure) parts.push('Secure');
  res.append('Set-Cookie', parts.join('; '));
}

export function clearReaderCookie(req: Request, res: Response): void {
  setReaderCookie(req, res, '', 0);
}
