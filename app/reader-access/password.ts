import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions) => Promise<Buffer>;

/** scrypt cost of new hashes: 16 MiB and ~50 ms per attempt, within node's default maxmem (32 MiB). */
const N = 16384;
const R = 8;
const P = 1;
const KEY_BYTES = 32;

/** `scrypt$N$r$p$salt$hash` (base64url): what `docs-appliance reader-auth hash-password` prints and `auth.password.hash` holds. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password, salt, KEY_BYTES, { N, r: R, p: P });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Whether the password matches the hash; the comparison takes the same time wherever they differ. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const m = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/.exec(hash.trim());
  if (!m) throw new Error('the configured password hash is not a scrypt$… hash');
  const [n, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const want = Buffer.from(m[5]!, 'base64url');
  const got = await scrypt(password, Buffer.from(m[4]!, 'base64url'), want.length, { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 });
  return crypto.timingSafeEqual(got, want);
}
