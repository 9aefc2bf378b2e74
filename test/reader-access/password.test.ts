import supertest from 'supertest';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { TestAppliance } from '../helpers/appliance.js';
import { TEST_ORG, TEST_PROJECT } from '../helpers/appliance.js';
import { runCli } from '../helpers/cli.js';
import { hashPassword, verifyPassword } from '../../app/reader-access/password.js';
import { PASSWORD_ATTEMPTS } from '../../app/reader-access/routes.js';
import { authAppliance, HOST, readerAccessOf, readerCookieOf } from './helpers.js';

let a: TestAppliance | undefined;
let hash: string;
beforeAll(async () => {
  hash = await hashPassword('correct horse');
});
afterEach(() => a?.close());

const login = (t: TestAppliance, password: string, redirect = '/guides') =>
  supertest(t.site).post('/login').set('Host', HOST).type('form').send({ password, redirect });

describe('one shared password per project', () => {
  test('the form; a good password signs in (audited); a bad one is 401, audited, no cookie', async () => {
    a = authAppliance({ method: 'password', password: { hash } });
    const form = await supertest(a.site).get('/login?redirect=%2Fguides').set('Host', HOST);
    expect(form.status).toBe(200);
    expect(form.text).toContain('<form method="post" action="/login">');
    expect(form.text).toContain('name="redirect" value="/guides"');
    expect(form.headers['cache-control']).toBe('private, no-store');

    const bad = await login(a, 'wrong');
    expect(bad.status).toBe(401);
    expect(bad.text).toContain('That password is not right.');
    expect(readerCookieOf(bad)).toBeUndefined();

    const good = await login(a, 'correct horse');
    expect(good.status).toBe(303);
    expect(good.headers.location).toBe('/guides');
    const me = await supertest(a.site).get('/_/reader/user').set('Host', HOST).set('Cookie', readerCookieOf(good)!);
    expect(me.body).toEqual({ signedIn: true, groups: [], content: {}, apiPlaygroundInputs: {} });
    const actions = a.ctx.stores.consoleAudit.page({ orgId: TEST_ORG, limit: 10, offset: 0 }).map((e) => e.action);
    expect(actions).toEqual(['reader.sign-in', 'reader.sign-in-failed']);
  });

  test('signed-out readers are sent to /login with the page; other paths pass through to the site; POST /logout ends the session', async () => {
    a = authAppliance({ method: 'password', password: { hash } });
    expect(readerAccessOf(a).access.signInUrl(TEST_PROJECT, '/guides/x?y=1')).toBe('/login?redirect=%2Fguides%2Fx%3Fy%3D1');
    const other = await supertest(a.site).get('/loginx').set('Host', HOST);
    expect(other.text).not.toContain('password');
    const cookie = readerCookieOf(await login(a, 'correct horse'))!;
    const out = await supertest(a.site).post('/logout').set('Host', HOST).set('Cookie', cookie);
    expect(out.status).toBe(302);
    expect(out.headers.location).toBe('/login');
    expect((await supertest(a.site).get('/_/reader/user').set('Host', HOST).set('Cookie', cookie)).body.signedIn).toBe(false);
  });

  test('the hash may come from an environment variable', async () => {
    process.env.TEST_READER_HASH = hash;
    try {
      a = authAppliance({ method: 'password', password: { hashEnv: 'TEST_READER_HASH' } });
      expect((await login(a, 'correct horse')).status).toBe(303);
      expect((await login(a, 'nope')).status).toBe(401);
    } finally {
      delete process.env.TEST_READER_HASH;
    }
  });

  test(`rate limited per project and client: past ${PASSWORD_ATTEMPTS} attempts even the right password is 429`, async () => {
    a = authAppliance({ method: 'password', password: { hash } });
    for (let i = 0; i < PASSWORD_ATTEMPTS; i++) {
      const r = await login(a, `guess ${i}`);
      expect(r.status).toBe(401);
      expect(r.headers['ratelimit-remaining']).toBe(String(PASSWORD_ATTEMPTS - i - 1));
    }
    const limited = await login(a, 'correct horse');
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    expect(readerCookieOf(limited)).toBeUndefined();
    // The window passes: the right password works again.
    a.clock.advance(16 * 60_000);
    expect((await login(a, 'correct horse')).status).toBe(303);
  });

  test('verifyPassword: scrypt, salted (two hashes of one password differ)', async () => {
    const again = await hashPassword('correct horse');
    expect(again).not.toBe(hash);
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyPassword('correct horse', again)).toBe(true);
    expect(await verifyPassword('correct horsf', again)).toBe(false);
  });

  test('CLI: reader-auth hash-password prints a hash of the password on stdin, usable in the config', async () => {
    const out = await runCli(['reader-auth', 'hash-password'], { stdin: 's3cret!\n' });
    expect(out.code).toBe(0);
    const printed = out.out.trim();
    expect(printed).toMatch(/^scrypt\$/);
    expect(await verifyPassword('s3cret!', printed)).toBe(true);
    a = authAppliance({ method: 'password', password: { hash: printed } });
    expect((await login(a, 's3cret!')).status).toBe(303);
    const empty = await runCli(['reader-auth', 'hash-password'], { stdin: '' });
    expect(empty.code).toBe(2);
  });
});
