import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { hashPassword } from '../../app/reader-access/password.js';
import type { ConfigInput } from '../../config/schema.js';
import { createTestAppliance, OTHER_ORG, OTHER_PROJECT, TEST_ORG, TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';
import { accessSite, serveAccessSite } from '../access/helpers.js';
import { HOST, readerCookieOf } from '../reader-access/helpers.js';
import { consoleClient, formAction } from './helpers.js';

let a: TestAppliance | undefined;
let hash: string;
beforeAll(async () => {
  hash = await hashPassword('correct horse');
});
afterEach(async () => {
  await a?.close();
  a = undefined;
});

const base = `/console/orgs/${TEST_ORG}/projects/${TEST_PROJECT}`;
type Auth = NonNullable<ConfigInput['projects']>[number]['auth'];

/** A source of one public, one signed-in and one admin-group page. */
function accessSource(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'console-access-src-'));
  fs.writeFileSync(path.join(dir, 'docs.json'), JSON.stringify({ name: 'Access docs', navigation: { pages: ['index', 'guide', 'admin'] } }));
  fs.writeFileSync(path.join(dir, 'index.mdx'), '---\ntitle: Home\npublic: true\n---\nWelcome.\n');
  fs.writeFileSync(path.join(dir, 'guide.mdx'), '---\ntitle: Guide\n---\nFor readers.\n');
  fs.writeFileSync(path.join(dir, 'admin.mdx'), '---\ntitle: Admin\ngroups: ["admin"]\n---\nFor admins.\n');
  return dir;
}

function projects(auth: Auth | undefined, sourceDir: string): ConfigInput['projects'] {
  return [
    { id: TEST_PROJECT, orgId: TEST_ORG, name: 'Test docs', domain: HOST, sourceDir, ...(auth ? { auth } : {}) },
    { id: OTHER_PROJECT, orgId: OTHER_ORG, name: 'Other docs', domain: 'docs.other.internal', sourceDir },
  ];
}

const readerLogin = (t: TestAppliance) => supertest(t.site).post('/login').set('Host', HOST).type('form').send({ password: 'correct horse', redirect: '/partner' });
const readerUser = (t: TestAppliance, cookie: string) => supertest(t.site).get('/_/reader/user').set('Host', HOST).set('Cookie', cookie);
/** The listed ids of the sessions table's Revoke buttons (a prefix of each session's hash). */
const revokeLabels = (html: string) => [...html.matchAll(/aria-label="(Revoke session [0-9a-f]{12})"/g)].map((m) => m[1]!);
/** The reader-access card: from its heading to the next card. */
const section = (html: string) => /aria-labelledby="reader-access-h"[\s\S]*?(?=<section class="card" aria-labelledby="exports-h")/.exec(html)?.[0] ?? '';

describe('the project page’s reader access (issue 40)', { timeout: 120_000 }, () => {
  test('a served bundle with an access map: method and page counts shown; a reader’s session listed without identity; Revoke signs that reader out, audited', async () => {
    const t = await serveAccessSite(undefined, accessSite(), { projects: projects({ method: 'password', password: { hash } }, accessSource()) });
    a = t;
    const c = consoleClient(t.admin);
    await c.signIn(t.createKey(TEST_ORG));

    const before = (await c.page(base)).text;
    expect(before).toContain('Method: <strong>password</strong>');
    expect(before).toContain('Served version: 2 public, 1 signed-in, 1 group pages.');
    expect(before).toContain('No reader is signed in.');

    // A reader signs in (password), with user data the console must not show.
    const login = await readerLogin(t);
    expect(login.status).toBe(303);
    const cookie = readerCookieOf(login)!;
    expect((await readerUser(t, cookie)).body.signedIn).toBe(true);
    expect((await supertest(t.site).get('/partner').set('Host', HOST).set('Cookie', cookie)).status).toBe(200);

    // A session whose user data names the reader (as a JWT portal's would): listed, the name never shown.
    t.ctx.stores.readerSessions.create({ id: 'jwt-session-id', projectId: TEST_PROJECT, method: 'jwt', groups: ['admin', 'ops'], content: { name: 'Ada Lovelace', email: 'ada@example.com' }, expiresAt: new Date(t.clock.now().getTime() + 3_600_000) });
    const both = (await c.page(base)).text;
    expect(revokeLabels(both)).toHaveLength(2);
    expect(both).toContain('<td>admin, ops</td>');
    expect(both).toContain('<td>jwt</td>');
    expect(both).not.toContain('Ada Lovelace');
    expect(both).not.toContain('ada@example.com');
    expect((await c.agent.get(`${base}?csv=reader-sessions`)).text).not.toContain('Ada');
    expect(t.ctx.stores.readerSessions.revoke(TEST_PROJECT, t.ctx.stores.readerSessions.listActive(TEST_PROJECT, 3_600_000).find((s) => s.method === 'jwt')!.id)).toBe(true);

    const listed = (await c.page(base)).text;
    const labels = revokeLabels(listed);
    expect(labels).toHaveLength(1);
    const rows = /<table id="table-reader-sessions">[\s\S]*?<\/table>/.exec(listed)![0];
    expect(rows).toContain('<td>password</td>');
    const session = t.ctx.stores.readerSessions.listActive(TEST_PROJECT, 60 * 60_000)[0]!;
    expect(rows).toContain(`datetime="${session.createdAt}"`);
    expect(rows).toContain(`datetime="${session.expiresAt}"`);
    // The CSV has the same columns, without the button.
    const csv = await c.agent.get(`${base}?csv=reader-sessions`).expect(200);
    expect(csv.text.split('\n')[0]).toContain('Signed in');
    expect(csv.text).toContain('password');
    expect(csv.text).not.toContain('Revoke');

    const pressed = await c.press(base, labels[0]!);
    expect(pressed.status).toBe(303);
    expect(pressed.headers.location).toBe(`${base}?notice=reader-session-revoked`);
    // The reader's next request is signed out: no user, and the signed-in page sends them to sign in.
    expect((await readerUser(t, cookie)).body.signedIn).toBe(false);
    const guide = await supertest(t.site).get('/partner').set('Host', HOST).set('Cookie', cookie);
    expect(guide.status).toBe(302);
    expect(guide.headers.location).toContain('/login');
    const after = (await c.page(`${base}?notice=reader-session-revoked`)).text;
    expect(after).toContain('The reader session is revoked');
    expect(revokeLabels(after)).toEqual([]);
    expect(after).toContain('No reader is signed in.');
    const entry = t.ctx.stores.consoleAudit.page({ orgId: TEST_ORG, limit: 10, offset: 0 }).find((e) => e.action === 'reader.session-revoked');
    expect(entry).toMatchObject({ target: TEST_PROJECT });
    expect(entry!.actor).toMatch(/^key /);

    // Revoking it again: no such live session.
    const again = await c.post(formAction(listed, labels[0]!)!);
    expect(again.status).toBe(404);
  });

  test('the read role sees the sessions but no Revoke button, and its POST is 403; a POST without the CSRF token or from another origin is 403', async () => {
    const t = await authBundleAppliance();
    a = t;
    const cookie = readerCookieOf(await readerLogin(t))!;
    const id = t.ctx.stores.readerSessions.listActive(TEST_PROJECT, 60 * 60_000)[0]!.id;
    const action = `${base}/reader-sessions/${id}/revoke`;

    const reader = consoleClient(t.admin);
    await reader.signIn(t.createKey(TEST_ORG, { scopes: ['read'] }));
    const page = (await reader.page(base)).text;
    expect(page).toContain('<table id="table-reader-sessions">');
    expect(page).toContain('<td>password</td>');
    expect(revokeLabels(page)).toEqual([]);
    expect((await reader.post(action)).status).toBe(403);

    const writer = consoleClient(t.admin);
    await writer.signIn(t.createKey(TEST_ORG));
    await writer.page(base);
    expect((await writer.agent.post(action).type('form').send({})).status).toBe(403);
    expect((await writer.agent.post(action).type('form').send({ _csrf: 'wrong' })).status).toBe(403);
    expect((await writer.post(action).set('Origin', 'https://evil.example')).status).toBe(403);
    // Nothing was revoked by those.
    expect((await readerUser(t, cookie)).body.signedIn).toBe(true);
    expect(t.ctx.stores.consoleAudit.page({ orgId: TEST_ORG, limit: 20, offset: 0 }).some((e) => e.action === 'reader.session-revoked')).toBe(false);
    // A session id of another project (or none) is refused, not revoked elsewhere.
    expect((await writer.post(`${base.replace(TEST_PROJECT, OTHER_PROJECT)}/reader-sessions/${id}/revoke`)).status).toBe(404);
    expect((await readerUser(t, cookie)).body.signedIn).toBe(true);
  });

  test('a served bundle without an access map, of a project with auth: “publish again”, no counts', async () => {
    a = await authBundleAppliance();
    const c2 = consoleClient(a.admin);
    await c2.signIn(a.createKey(TEST_ORG));
    const text = section((await c2.page(base)).text);
    expect(text).toContain('not rendered with access yet: publish again');
    expect(text).not.toContain('Served version:');
  });

  test('before anything is served: the method, “nothing served”; a project without auth: method “public”, no sessions table', async () => {
    const unserved = createTestAppliance({ config: { projects: projects({ method: 'password', password: { hash } }, accessSource()) } });
    a = unserved;
    const c0 = consoleClient(unserved.admin);
    await c0.signIn(unserved.createKey(TEST_ORG));
    const first = section((await c0.page(base)).text);
    expect(first).toContain('Method: <strong>password</strong>');
    expect(first).toContain('Nothing is served for this project yet.');
    expect(first).toContain('No reader is signed in.');
    await unserved.close();

    a = createTestAppliance({});
    const c = consoleClient(a.admin);
    await c.signIn(a.createKey(TEST_ORG));
    const text = section((await c.page(base)).text);
    expect(text).toContain('Method: <strong>public</strong>');
    expect(text).toContain('All pages are public.');
    expect(text).not.toContain('table-reader-sessions');
  });
});

/** A project with password auth served by a single-site bundle rendered without access (no map). */
function authBundleAppliance(): Promise<TestAppliance> {
  return serveAccessSite(undefined, { files: accessSite().files, access: undefined }, { projects: projects({ method: 'password', password: { hash } }, accessSource()) });
}
