import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSecrets, type Secrets } from '../../app/secrets.js';
import { bundlePath, LINK_SECRET, signBundleLink, verifyBundleLink } from '../../app/static-export/signed-link.js';

let dir: string;
let secrets: Secrets;
const now = new Date('2026-11-01T12:00:00.000Z');
const JOB = 'se_0123456789abcdef';

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'se-link-'));
  secrets = createSecrets(dir);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const query = (pathAndQuery: string) => Object.fromEntries(new URL(pathAndQuery, 'http://x').searchParams);

describe('signed bundle links', () => {
  it('signs base64url(HMAC-SHA256(key, "GET\\n<path>\\n<expires>")) with the current key id', () => {
    const link = signBundleLink(secrets, JOB, now, 3600);
    const q = query(link.pathAndQuery);
    const expires = now.getTime() / 1000 + 3600;
    expect(link.expiresAt.toISOString()).toBe('2026-11-01T13:00:00.000Z');
    expect(q.expires).toBe(String(expires));
    const { kid, key } = secrets.current(LINK_SECRET);
    expect(q.kid).toBe(kid);
    expect(q.signature).toBe(crypto.createHmac('sha256', key).update(`GET\n${bundlePath(JOB)}\n${expires}`).digest('base64url'));
    // The secret was generated on first use, in the state dir, readable by the owner only.
    const file = path.join(dir, 'secrets', `${LINK_SECRET}.${kid}.key`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('verifies until the expiry, then refuses', () => {
    const link = signBundleLink(secrets, JOB, now, 60);
    const q = query(link.pathAndQuery);
    expect(verifyBundleLink(secrets, bundlePath(JOB), q, new Date(now.getTime() + 59_999))).toEqual({ ok: true });
    expect(verifyBundleLink(secrets, bundlePath(JOB), q, new Date(now.getTime() + 60_000))).toMatchObject({ ok: false, reason: expect.stringMatching(/expired/) });
  });

  it('refuses a link for another path, a changed expiry, an unknown key id, or malformed parameters', () => {
    const q = query(signBundleLink(secrets, JOB, now, 60).pathAndQuery);
    const bad = (p: string, qq: Record<string, unknown>) => verifyBundleLink(secrets, p, qq, now);
    expect(bad(bundlePath('se_ffffffffffffffff'), q).ok).toBe(false);
    expect(bad(bundlePath(JOB), { ...q, expires: String(Number(q.expires) + 1) }).ok).toBe(false);
    expect(bad(bundlePath(JOB), { ...q, kid: '00000000' }).ok).toBe(false);
    expect(bad(bundlePath(JOB), { ...q, signature: `${q.signature}A` }).ok).toBe(false);
    expect(bad(bundlePath(JOB), { ...q, signature: ['a', 'b'] }).ok).toBe(false);
    expect(bad(bundlePath(JOB), { ...q, expires: '1e12' }).ok).toBe(false);
    expect(bad(bundlePath(JOB), { expires: q.expires }).ok).toBe(false);
  });

  it('keeps verifying links signed by an older key after a new key is added (rotation)', () => {
    const q = query(signBundleLink(secrets, JOB, now, 60).pathAndQuery);
    const oldKid = q.kid!;
    const newer = path.join(dir, 'secrets', `${LINK_SECRET}.abcdef01.key`);
    fs.writeFileSync(newer, crypto.randomBytes(32).toString('base64'), { mode: 0o600 });
    const future = new Date(Date.now() + 10_000);
    fs.utimesSync(newer, future, future);
    const rotated = createSecrets(dir);
    expect(rotated.current(LINK_SECRET).kid).toBe('abcdef01');
    expect(verifyBundleLink(rotated, bundlePath(JOB), q, now)).toEqual({ ok: true });
    expect(query(signBundleLink(rotated, JOB, now, 60).pathAndQuery).kid).not.toBe(oldKid);
  });
});
