import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishFeature } from '../../app/publish/feature.js';
import type { ReplicaFeature } from '../../app/replica/feature.js';
import { createTestAppliance, TEST_ORG, TEST_PROJECT, writeTinyDocs, type TestAppliance } from '../helpers/appliance.js';
import { BROWSER_UA, CLAUDE_UA, GOOGLEBOT_UA, GPTBOT_UA, readersOf } from '../reader-analytics/helpers.js';
import { page } from './helpers.js';

/*
 * Issues 19 and 20: AI agents' page views that a serving replica's site listener counts (agents
 * run no script, so they send no beacon) reach the publishing appliance's report like the
 * replica's forwarded beacons, and nothing of them is kept on the replica.
 */
const KEY_ENV = 'DOCS_APPLIANCE_TEST_REPLICA_AGENT_KEY';
const DOMAIN = 'docs.test.internal';
const AGENT_A = '192.0.2.61';
const AGENT_B = '192.0.2.62';

let publisher: TestAppliance;
let replica: TestAppliance;
/** A second replica of the same publisher whose own switch (analytics.readers.enabled) is off. */
let quiet: TestAppliance;
let replicaKey: string;
let adminKey: string;
let root: string;
const servers: http.Server[] = [];

const listen = async (app: http.RequestListener) => {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
const forwarderOf = (t: TestAppliance) => (t.features.find((f) => f.name === 'replica') as ReplicaFeature).forwarder!;
const forwarder = () => forwarderOf(replica);
const fromReplica = (pathName: string, ua: string, ip: string) => page(replica, DOMAIN, pathName).set('User-Agent', ua).set('X-Forwarded-For', ip);
const views = async () => (await publisher.api(adminKey).get(`/v1/analytics/${TEST_PROJECT}/views`).expect(200)).body;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'replica-agents-'));
  publisher = createTestAppliance({ sourceDir: writeTinyDocs(path.join(root, 'docs')), config: { renderer: { threads: 1 }, admin: { trustProxy: true }, analytics: { rateLimitPerHour: 1000 } } });
  await publisher.start();
  adminKey = publisher.createKey();
  replicaKey = publisher.createKey(TEST_ORG, { scopes: ['replica'] });
  const adminUrl = await listen(publisher.admin);
  const siteUrl = await listen(publisher.site);
  process.env[KEY_ENV] = replicaKey;
  replica = createTestAppliance({
    config: {
      projects: [],
      organizations: [],
      admin: { trustProxy: true },
      site: { exampleOnFirstStart: false },
      replica: { upstreamUrl: adminUrl, upstreamSiteUrl: siteUrl, keyEnv: KEY_ENV, waitSeconds: 5 },
    },
  });
  quiet = createTestAppliance({
    config: {
      projects: [],
      organizations: [],
      admin: { trustProxy: true },
      analytics: { readers: { enabled: false } },
      site: { exampleOnFirstStart: false },
      replica: { upstreamUrl: adminUrl, upstreamSiteUrl: siteUrl, keyEnv: KEY_ENV, waitSeconds: 5 },
    },
  });
  const publish = (publisher.features.find((f) => f.name === 'publish') as PublishFeature).service;
  publish.publish(TEST_PROJECT, 'api');
  await publish.idle();
  for (const r of [replica, quiet]) {
    await r.start();
    for (const started = Date.now(); (await page(r, DOMAIN)).status !== 200; ) {
      if (Date.now() - started > 30_000) throw new Error('the replica did not serve the published site within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}, 90_000);

afterAll(async () => {
  await replica?.close();
  await quiet?.close();
  await publisher?.close();
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
  delete process.env[KEY_ENV];
  fs.rmSync(root, { recursive: true, force: true });
});

describe('AI agents’ views on a serving replica', { timeout: 60_000 }, () => {
  it('reach the publisher’s report (pages and .md), counted per agent, and nothing is kept on the replica', async () => {
    await fromReplica('/guides/intro', GPTBOT_UA, AGENT_A).expect(200);
    await fromReplica('/guides/intro.md', GPTBOT_UA, AGENT_A).expect(200);
    await fromReplica('/', CLAUDE_UA, AGENT_B).expect(200);
    await fromReplica('/', GOOGLEBOT_UA, '192.0.2.63').expect(200); // a plain crawler: not counted anywhere
    await fromReplica('/', BROWSER_UA, '203.0.113.5').expect(200); // a browser: its page's beacon counts it
    await forwarder().flush();
    expect(forwarder().stats()).toEqual({ buffered: 0, forwarded: 3, dropped: 0 });
    readersOf(publisher).flush();
    expect((await views()).views).toEqual([
      { path: '/guides/intro', human: 0, ai: 2, total: 2 },
      { path: '/', human: 0, ai: 1, total: 1 },
    ]);
    // Two agents at two addresses (the reader's address travelled as X-Forwarded-For): two visitors.
    expect((await publisher.api(adminKey).get(`/v1/analytics/${TEST_PROJECT}/visitors`).expect(200)).body.totals).toEqual({ human: 0, ai: 2, total: 2 });

    // Nothing waits or was written on the replica, and its files never saw the agents' addresses.
    expect(readersOf(replica).flush()).toBe(0);
    expect((replica.ctx.db.prepare('SELECT count(*) AS n FROM page_views').get() as { n: number }).n).toBe(0);
    replica.ctx.db.pragma('wal_checkpoint(TRUNCATE)');
    const onDisk = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? onDisk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
    for (const file of onDisk(replica.stateDir)) {
      const bytes = fs.readFileSync(file);
      for (const needle of [AGENT_A, AGENT_B, 'GPTBot']) expect(bytes.includes(Buffer.from(needle)), `${needle} in ${file}`).toBe(false);
    }
  });

  it('forwards nothing of readers from a replica whose own switch is off (searches still go)', async () => {
    const before = (await views()).totals;
    await page(quiet, DOMAIN, '/guides/intro').set('User-Agent', GPTBOT_UA).set('X-Forwarded-For', AGENT_A).expect(200);
    const beacon = await supertest(quiet.site)
      .post('/_/events')
      .set('Host', DOMAIN)
      .set('Content-Type', 'application/json')
      .set('User-Agent', BROWSER_UA)
      .send(JSON.stringify([{ type: 'pageview', path: '/', viewId: 'quiet-1' }, { type: 'search', query: 'quiet search', resultCount: 1, sessionId: 's' }]))
      .expect(202);
    expect(beacon.body.collecting).toBe(false);
    await forwarderOf(quiet).flush();
    expect(forwarderOf(quiet).stats()).toEqual({ buffered: 0, forwarded: 1, dropped: 0 });
    readersOf(publisher).flush();
    expect((await views()).totals).toEqual(before);
  });

  it('takes agent views at the publisher only with a replica key', async () => {
    const post = () => supertest(publisher.site).post('/_/events').set('Host', DOMAIN).set('Content-Type', 'application/json').set('User-Agent', GPTBOT_UA);
    const body = JSON.stringify([{ type: 'agentview', path: '/forged' }]);
    const anonymous = await post().send(body).expect(400);
    expect(anonymous.body.rejected[0].message).toMatch(/forwarded by a serving replica only/);
    await post().set('Authorization', `Bearer ${adminKey}`).send(body).expect(400);
    // Through a replica, an agent view posted by a client is refused there too (only its listener makes them).
    await supertest(replica.site).post('/_/events').set('Host', DOMAIN).set('Content-Type', 'application/json').send(body).expect(400);
    await post().set('Authorization', `Bearer ${replicaKey}`).send(body).expect(202);
    readersOf(publisher).flush();
    expect((await views()).views).toContainEqual({ path: '/forged', human: 0, ai: 1, total: 1 });
  });
});
