import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../app/clock.js';
import type { PublishFeature } from '../../app/publish/feature.js';
import { hashPassword } from '../../app/reader-access/password.js';
import type { ReaderAccessService } from '../../app/reader-access/service.js';
import type { ReplicaFeature } from '../../app/replica/feature.js';
import { SESSION_SYNC_MS } from '../../app/replica/reader-sessions.js';
import { hashSessionId } from '../../data/stores/reader-sessions.js';
import { createTestAppliance, OTHER_ORG, TEST_ORG, TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';
import { readerCookieOf } from '../reader-access/helpers.js';

/*
 * Issue 40, part 5: a replica checks the cookies of a followed project with reader access itself,
 * and what only the publisher's rows know (revoked, signed out, idle) reaches it within the sync
 * bound, survives its restart, and is not lost to a malformed answer.
 */
const KEY_ENV = 'DOCS_APPLIANCE_TEST_REPLICA_READER_KEY';
const DOMAIN = 'docs.test.internal';
const IDLE_MINUTES = 5;
/** The documented bound (docs/reader-access.md): one sync interval, plus the round itself. */
const BOUND_MS = SESSION_SYNC_MS + 3000;

const clock = manualClock(new Date());
let publisher: TestAppliance;
let replica: TestAppliance;
let replicaState: string;
let root: string;
let adminUrl: string;
let siteUrl: string;
let servers: http.Server[] = [];

const listen = async (app: http.RequestListener) => {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
const publishOf = (t: TestAppliance) => (t.features.find((f) => f.name === 'publish') as PublishFeature).service;
const readerServiceOf = (t: TestAppliance) => (t.features.find((f) => f.name === 'reader-access') as unknown as { service: ReaderAccessService }).service;
const replicaSessions = (t: TestAppliance) => (t.features.find((f) => f.name === 'replica') as ReplicaFeature).readerSessions!;

function startReplica(upstreamUrl: string): TestAppliance {
  return createTestAppliance({
    clock,
    stateDir: replicaState,
    config: { projects: [], organizations: [], site: { exampleOnFirstStart: false }, replica: { upstreamUrl, upstreamSiteUrl: siteUrl, keyEnv: KEY_ENV, waitSeconds: 2 } },
  });
}

/** The id the console lists a session by: the hash of the id sealed in the cookie. */
const listedIdOf = (cookie: string) => hashSessionId(readerServiceOf(publisher).sessions.sessionIdOf({ headers: { cookie } } as http.IncomingMessage, TEST_PROJECT)!);

async function signIn(): Promise<string> {
  const r = await supertest(publisher.site).post('/login').set('Host', DOMAIN).type('form').send({ password: 'correct horse', redirect: '/' });
  expect(r.status).toBe(303);
  return readerCookieOf(r)!;
}

const onReplica = (cookie?: string, urlPath = '/') => {
  const req = supertest(replica.site).get(urlPath).set('Host', DOMAIN);
  return cookie ? req.set('Cookie', cookie) : req;
};

/** Whether the replica lets the cookie in: the page and /_/reader/user both say so. */
async function admitted(cookie: string): Promise<boolean> {
  const [pageRes, user] = await Promise.all([onReplica(cookie), onReplica(cookie, '/_/reader/user')]);
  expect(user.status).toBe(200);
  expect(user.headers['cache-control']).toBe('private, no-store');
  if (pageRes.status === 200) {
    expect(user.body.signedIn).toBe(true);
    return true;
  }
  // Refused as a signed-out reader is: sent to sign in with the page it wanted.
  expect(pageRes.status).toBe(302);
  expect(pageRes.headers.location).toBe('/login?redirect=%2F');
  expect(user.body).toEqual({ signedIn: false, groups: [], content: {}, apiPlaygroundInputs: {} });
  return false;
}

/** Real time from now until the replica refuses the cookie; throws past the bound. */
async function refusedWithin(cookie: string, ms = BOUND_MS): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (!(await admitted(cookie))) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`the replica still admits the session after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'replica-reader-'));
  const source = path.join(root, 'docs');
  fs.mkdirSync(source);
  fs.writeFileSync(path.join(source, 'docs.json'), JSON.stringify({ name: 'Auth docs', navigation: { pages: ['index'] } }));
  fs.writeFileSync(path.join(source, 'index.mdx'), '---\ntitle: Home\n---\nOnly for signed-in readers.\n');
  const hash = await hashPassword('correct horse');
  publisher = createTestAppliance({
    clock,
    sourceDir: source,
    config: {
      renderer: { threads: 1 },
      projects: [{ id: TEST_PROJECT, orgId: TEST_ORG, name: 'Test docs', domain: DOMAIN, sourceDir: source, auth: { method: 'password', password: { hash }, session: { idleMinutes: IDLE_MINUTES } } }],
    },
  });
  await publisher.start();
  process.env[KEY_ENV] = publisher.createKey(TEST_ORG, { scopes: ['replica'] });
  adminUrl = await listen(publisher.admin);
  siteUrl = await listen(publisher.site);
  publishOf(publisher).publish(TEST_PROJECT, 'api');
  await publishOf(publisher).idle();
  // The replica is given the publisher's reader-session key file, as the docs say (created at the first seal).
  await signIn();
  replicaState = path.join(root, 'replica-state');
  fs.mkdirSync(path.join(replicaState, 'secrets'), { recursive: true, mode: 0o700 });
  for (const f of fs.readdirSync(path.join(publisher.stateDir, 'secrets')).filter((n) => n.startsWith('reader-session'))) {
    fs.copyFileSync(path.join(publisher.stateDir, 'secrets', f), path.join(replicaState, 'secrets', f));
  }
  replica = startReplica(adminUrl);
  await replica.start();
  const until = Date.now() + 30_000;
  while ((await onReplica()).status !== 302) {
    if (Date.now() > until) throw new Error('the replica did not follow the published site');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 90_000);

afterAll(async () => {
  await replica?.close();
  await publisher?.close();
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
  servers = [];
  delete process.env[KEY_ENV];
  fs.rmSync(root, { recursive: true, force: true });
});

describe('reader sessions on a serving replica', { timeout: 120_000 }, () => {
  it('admits a cookie signed in on the publisher; a revoke reaches the replica within the bound', async () => {
    const cookie = await signIn();
    expect(await admitted(cookie)).toBe(true);
    expect((await onReplica(cookie)).text).toContain('Only for signed-in readers.');
    expect((await onReplica()).status).toBe(302);

    // The console's Revoke (its HTTP path is test/console/reader-access.test.ts) by the listed id.
    expect(readerServiceOf(publisher).revokeSession(TEST_PROJECT, listedIdOf(cookie), 'console:test')).toBe(true);
    expect(await refusedWithin(cookie)).toBeLessThanOrEqual(BOUND_MS);
    // The publisher refuses it too, and the replica says who refused what only by a count.
    expect((await supertest(publisher.site).get('/_/reader/user').set('Host', DOMAIN).set('Cookie', cookie)).body.signedIn).toBe(false);
    expect(replicaSessions(replica).status().denied).toBeGreaterThanOrEqual(1);
  });

  it('a sign-out on the publisher reaches the replica within the bound', async () => {
    const cookie = await signIn();
    expect(await admitted(cookie)).toBe(true);
    const out = await supertest(publisher.site).post('/logout').set('Host', DOMAIN).set('Cookie', cookie);
    expect(out.status).toBe(302);
    expect(await refusedWithin(cookie)).toBeLessThanOrEqual(BOUND_MS);
  });

  it('reads on the replica keep a session alive on the publisher; once idle there, the replica refuses it', async () => {
    const cookie = await signIn();
    expect(await admitted(cookie)).toBe(true);
    // Past the idle window measured from sign-in, but read on the replica in between: still live.
    clock.advance(3 * 60_000);
    expect(await admitted(cookie)).toBe(true);
    await replicaSessions(replica).sync();
    clock.advance(3 * 60_000);
    await replicaSessions(replica).sync();
    expect(await admitted(cookie)).toBe(true);
    expect((await supertest(publisher.site).get('/_/reader/user').set('Host', DOMAIN).set('Cookie', cookie)).body.signedIn).toBe(true);
    // Unused for longer than idleMinutes anywhere: the publisher ends it and the replica learns it.
    await replicaSessions(replica).sync();
    clock.advance((IDLE_MINUTES + 1) * 60_000);
    expect(await refusedWithin(cookie)).toBeLessThanOrEqual(BOUND_MS);
    expect((await supertest(publisher.site).get('/_/reader/user').set('Host', DOMAIN).set('Cookie', cookie)).body.signedIn).toBe(false);
  });

  it('a restarted replica keeps its deny set; malformed upstream answers are refused without losing it', async () => {
    const live = await signIn();
    const revoked = await signIn();
    expect(readerServiceOf(publisher).revokeSession(TEST_PROJECT, listedIdOf(revoked), 'console:test')).toBe(true);
    await replicaSessions(replica).sync();
    expect(await admitted(revoked)).toBe(false);
    expect(await admitted(live)).toBe(true);
    const before = replicaSessions(replica).status().denied;
    const cursor = replica.ctx.stores.replicaDeniedSessions.cursor();
    expect(cursor).toBeGreaterThan(0);

    // An upstream that answers nonsense: the wrong shape, a negative cursor, a bad id, not JSON, a 500.
    const answers = [
      JSON.stringify({ ended: 'all', cursor: 1, more: false }),
      JSON.stringify({ ended: [], cursor: -1, more: false }),
      JSON.stringify({ ended: [{ id: 'not-a-hash', projectId: TEST_PROJECT, expiresAt: new Date().toISOString() }], cursor: 999, more: false }),
      'not json',
    ];
    let asked = 0;
    const bad = await listen((req, res) => {
      if (req.url?.startsWith('/v1/replica/reader-sessions/ended')) {
        const body = answers[asked++ % (answers.length + 1)];
        if (body === undefined) return void res.writeHead(500).end();
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      }
      if (req.url?.startsWith('/v1/replica/reader-sessions/seen')) return void res.writeHead(204).end();
      res.writeHead(503).end();
    });
    await replica.close();
    replica = startReplica(bad);
    await replica.start();
    // Restarted: the followed site is served from disk and the revoked cookie stays refused.
    expect(await admitted(revoked)).toBe(false);
    expect(await admitted(live)).toBe(true);
    for (let i = 0; i < answers.length + 1; i++) await expect(replicaSessions(replica).sync()).rejects.toThrow(/malformed|answered 500/);
    expect(asked).toBeGreaterThanOrEqual(answers.length + 1);
    expect(replicaSessions(replica).status().denied).toBe(before);
    expect(replica.ctx.stores.replicaDeniedSessions.cursor()).toBe(cursor);
    const ready = await replica.api().get('/readyz').expect(200);
    expect(ready.body.checks.replica).toMatchObject({ critical: false, detail: expect.stringMatching(/reader sessions: (the publisher answered 500|the publisher’s list of ended reader sessions is malformed)/) });
    expect(ready.body.checks.replica.detail).toContain(`(${before} denied kept)`);
    expect(await admitted(revoked)).toBe(false);
    expect(await admitted(live)).toBe(true);

    // Back on the real publisher, it picks up from its cursor.
    await replica.close();
    replica = startReplica(adminUrl);
    await replica.start();
    await replicaSessions(replica).sync();
    expect(await admitted(revoked)).toBe(false);
    expect(await admitted(live)).toBe(true);
  });

  it('the replica endpoints for reader sessions take the replica key only and check what they are sent', async () => {
    const admin = supertest(publisher.admin);
    const key = process.env[KEY_ENV]!;
    await admin.get('/v1/replica/reader-sessions/ended').expect(401);
    await admin.get('/v1/replica/reader-sessions/ended').set('Authorization', `Bearer ${publisher.createKey()}`).expect(403);
    await admin.get('/v1/replica/reader-sessions/ended?after=-1').set('Authorization', `Bearer ${key}`).expect(400);
    const page = await admin.get('/v1/replica/reader-sessions/ended?after=0&limit=1').set('Authorization', `Bearer ${key}`).expect(200);
    expect(page.body).toMatchObject({ cursor: expect.any(Number), more: true });
    expect(page.body.ended).toHaveLength(1);
    expect(Object.keys(page.body.ended[0]).sort()).toEqual(['expiresAt', 'id', 'projectId', 'reason']);
    // A cursor past the journal (a replaced publisher) starts again.
    const reset = await admin.get('/v1/replica/reader-sessions/ended?after=999999').set('Authorization', `Bearer ${key}`).expect(200);
    expect(reset.body.reset).toBe(true);
    await admin.post('/v1/replica/reader-sessions/seen').set('Authorization', `Bearer ${key}`).send({ seen: [{ id: 'x', projectId: TEST_PROJECT, at: 'now' }] }).expect(400);
    await admin.post('/v1/replica/reader-sessions/seen').set('Authorization', `Bearer ${key}`).send({ seen: 'all' }).expect(400);
    await admin.post('/v1/replica/reader-sessions/seen').set('Authorization', `Bearer ${key}`).send({ seen: [] }).expect(204);
    // Another organization's replica key neither sees this project's ended sessions nor touches them.
    const otherKey = publisher.createKey(OTHER_ORG, { scopes: ['replica'] });
    const other = await admin.get('/v1/replica/reader-sessions/ended?after=0').set('Authorization', `Bearer ${otherKey}`).expect(200);
    expect(other.body.ended).toEqual([]);
  });

  it('past a session’s absolute end its entries go: the replica prunes its deny set, the publisher its journal', async () => {
    const revoked = await signIn();
    expect(readerServiceOf(publisher).revokeSession(TEST_PROJECT, listedIdOf(revoked), 'console:test')).toBe(true);
    await replicaSessions(replica).sync();
    expect(replicaSessions(replica).status().denied).toBeGreaterThan(0);
    // The default maxHours is 14 days: past it every session of this file has ended by itself.
    clock.advance(15 * 24 * 3_600_000);
    await replicaSessions(replica).sync();
    expect(replicaSessions(replica).status().denied).toBe(0);
    expect(await admitted(revoked)).toBe(false);
    publisher.ctx.stores.readerSessions.pruneExpired();
    const list = await supertest(publisher.admin).get('/v1/replica/reader-sessions/ended?after=0').set('Authorization', `Bearer ${process.env[KEY_ENV]!}`).expect(200);
    expect(list.body.ended).toEqual([]);
  });
});
