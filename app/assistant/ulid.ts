import crypto from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const ULID_RE = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** A ULID (the analytics document's thread and cursor format): 48-bit time, 80 random bits. */
export function ulid(atMs: number): string {
  let time = '';
  let t = Math.max(0, Math.floor(atMs));
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  let rand = '';
  for (const byte of crypto.randomBytes(16)) rand += CROCKFORD[byte % 32];
  return time + rand;
}
