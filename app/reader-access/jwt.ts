import crypto from 'node:crypto';
import fs from 'node:fs';
import type { ApiPlaygroundInputs } from './types.js';

/** The portal's key as configured: a PEM SPKI Ed25519 public key. Throws with a message naming the file and what is wrong. */
export function loadJwtPublicKey(file: string): crypto.KeyObject {
  let pem: string;
  try {
    pem = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(`cannot read the public key file ${file}: ${code === 'ENOENT' ? 'it does not exist' : (err as Error).message}`);
  }
  if (/PRIVATE KEY/.test(pem)) throw new Error(`${file} holds a private key: give the appliance the public key only (docs-appliance reader-auth keygen writes both)`);
  let key: crypto.KeyObject;
  try {
    key = crypto.createPublicKey({ key: pem, format: 'pem' });
  } catch (err) {
    throw new Error(`${file} is not a PEM public key (-----BEGIN PUBLIC KEY-----, SPKI): ${(err as Error).message}`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${file} is a ${key.asymmetricKeyType ?? 'unknown'} key; the JWT handoff is signed with EdDSA and needs an Ed25519 public key`);
  return key;
}

/** Mintlify's user data as the portal signed it (deploy/authentication-setup.mdx, "User data format"). */
export interface SignedUser {
  groups: string[];
  content: Record<string, unknown>;
  apiPlaygroundInputs?: ApiPlaygroundInputs;
  expiresAt: number | null;
}

export type JwtResult = { ok: true; user: SignedUser } | { ok: false; reason: string };

/** Clock difference tolerated between the portal and the appliance for `exp` and `nbf`. */
const SKEW_SECONDS = 30;
const MAX_TOKEN_CHARS = 16 * 1024;
const B64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Verifies the handoff token with node:crypto alone: compact JWS, `alg` EdDSA and nothing else
 * (never `none`, never an HMAC algorithm keyed with the public key), an Ed25519 signature by the
 * configured key, an `exp` not past, and a `host` equal to the host the reader's browser is at (a
 * token minted for another site is not accepted here).
 */
export function verifyHandoff(token: string, key: crypto.KeyObject, host: string, nowMs: number): JwtResult {
  if (token.length > MAX_TOKEN_CHARS) return { ok: false, reason: 'token too long' };
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((p) => B64URL.test(p))) return { ok: false, reason: 'not a compact JWS' };
  const [h, p, s] = parts as [string, string, string];
  const header = parseJson(h);
  if (!header || header.alg !== 'EdDSA') return { ok: false, reason: `alg ${JSON.stringify(header?.alg ?? null)} refused: only EdDSA is accepted` };
  if (header.crit !== undefined) return { ok: false, reason: 'crit header not supported' };
  const signature = Buffer.from(s, 'base64url');
  if (signature.length !== 64 || !crypto.verify(null, Buffer.from(`${h}.${p}`), key, signature)) return { ok: false, reason: 'bad signature' };
  const claims = parseJson(p);
  if (!claims) return { ok: false, reason: 'payload is not a JSON object' };
  const now = nowMs / 1000;
  if (typeof claims.exp !== 'number') return { ok: false, reason: 'exp missing' };
  if (claims.exp + SKEW_SECONDS < now) return { ok: false, reason: 'token expired' };
  if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || claims.nbf - SKEW_SECONDS > now)) return { ok: false, reason: 'token not yet valid' };
  if (typeof claims.host !== 'string' || claims.host.toLowerCase() !== host.toLowerCase()) return { ok: false, reason: 'host does not match this site' };
  const user = userData(claims);
  if (typeof user === 'string') return { ok: false, reason: user };
  if (user.expiresAt !== null && user.expiresAt <= now) return { ok: false, reason: 'expiresAt already past' };
  return { ok: true, user };
}

/** The user data format's fields, checked; a string says what is wrong. Shared by the JWT handoff and the OAuth Info API. */
export function userData(raw: Record<string, unknown>): SignedUser | string {
  const { groups, content, apiPlaygroundInputs, expiresAt } = raw;
  if (groups !== undefined && (!Array.isArray(groups) || !groups.every((g) => typeof g === 'string'))) return 'groups must be an array of strings';
  if (content !== undefined && !isObject(content)) return 'content must be an object';
  if (apiPlaygroundInputs !== undefined && !isObject(apiPlaygroundInputs)) return 'apiPlaygroundInputs must be an object';
  if (expiresAt !== undefined && typeof expiresAt !== 'number') return 'expiresAt must be a number (seconds since the epoch)';
  return {
    groups: [...new Set((groups as string[] | undefined) ?? [])],
    content: (content as Record<string, unknown> | undefined) ?? {},
    ...(apiPlaygroundInputs ? { apiPlaygroundInputs: apiPlaygroundInputs as ApiPlaygroundInputs } : {}),
    expiresAt: (expiresAt as number | undefined) ?? null,
  };
}

function parseJson(b64: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(Buffer.from(b64, 'base64url').toString('utf8'));
    return isObject(v) ? v : null;
  } catch {
    return null;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
