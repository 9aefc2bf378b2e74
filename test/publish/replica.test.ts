import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAppliance, TEST_ORG, TEST_PROJECT, writeTinyDocs, type TestAppliance } from '../helpers/appliance.js';
import { runCli } from '../helpers/cli.js';
import type { PublishFeature } from '../../app/publish/feature.js';
import type { ReplicaFeature } from '../../app/replica/feature.js';
import { analyticsOf } from '../analytics/helpers.js';
import { page } from './helpers.js';

/*
 * Issue 19, part 6: a serving replica follows the publishing appliance with a key of its own
 * (long-poll with ETag), and beacons posted to the replica reach the publisher's analytics.
 */
const KEY_ENV = 'DOCS_APPLIANCE_TEST_REPLICA_KEY';
const DOMAIN = 'docs.test.internal';

let publisher: TestAppliance;
let replica: TestAppliance;
let servers: http.Server[] = [];
let source: string;
let adminKey: string;
let replicaKey: string;
let root: string;

const listen = async (app: http.RequestListener) => {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
const publishOf = (t: TestAppliance) => (t.features.find((f) => f.name === 'publish') as PublishFeature).service;

async function servedWithin(ms: number, text: string): Promise<number> {
  const started = Date.now();
  for (;;) {
    const r = await page(replica, DOMAIN);
    if (r.status === 200 && r.text.includes(text)) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`the replica did not serve "${text}" within ${ms} ms (last status ${r.status})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join((await import('node:os')).tmpdir(), 'replica-'));
  source = writeTinyDocs(path.join(root, 'docs'));
  publisher = createTestAppliance({ sourceDir: source, config: { renderer: { threads: 1 } } });
  await publisher.start();
  adminKey = publisher.createKey();
  replicaKey = publisher.createKey(TEST_ORG, { scopes: ['replica'] });
  const adminUrl = await listen(publisher.admin);
  const siteUrl = await listen(publisher.site);
  process.env[KEY_ENV] = replicaKey;
  // The replica declares no project of its own and has nothing to serve until it follows.
  replica = createTestAppliance({
    config: {
      projects: [],
      organizations: [],
      site: { exampleOnFirstStart: false },
      replica: { upstreamUrl: adminUrl, upstreamSiteUrl: siteUrl, keyEnv: KEY_ENV, waitSeconds: 5 },
    },
  });
}, 60_000);

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

describe('serving replicas that follow the publishing appliance', { timeout: 120_000 }, () => {
  it('serves what the publisher published, and a new publish within 30 s', async () => {
    publishOf(publisher).publish(TEST_PROJECT, 'api');
    await publishOf(publisher).idle();
    await replica.start();
    expect(await servedWithin(30_000, 'Welcome to the tiny docs')).toBeLessThan(30_000);

    fs.writeFileSync(path.join(source, 'index.mdx'), '---\ntitle: Home\n---\n\nPublished for the replicas.\n');
    const record = publishOf(publisher).publish(TEST_PROJECT, 'api');
    await publishOf(publisher).idle();
    expect(publishOf(publisher).status(record.id)!.status).toBe('success');
    const ms = await servedWithin(30_000, 'Published for the replicas');
    expect(ms).toBeLessThan(30_000);
  });

  it('forwards beacons posted to the replica to the publisher’s analytics', async () => {
    const beacon = { type: 'search', query: 'replica search', resultCount: 3, sessionId: 'reader-1' };
    const r = await supertest(replica.site).post('/_/events').set('Host', DOMAIN).set('Content-Type', 'application/json').send(JSON.stringify([beacon, { ...beacon, type: 'click', path: '/guides/intro', resultCount: undefined }]));
    expect(r.status).toBe(202);
    expect(r.body.accepted).toBe(2);
    await (replica.features.find((f) => f.name === 'replica') as ReplicaFeature).forwarder!.flush();
    expect((replica.features.find((f) => f.name === 'replica') as ReplicaFeature).forwarder!.stats()).toMatchObject({ forwarded: 2, buffered: 0, dropped: 0 });
    analyticsOf(publisher).flush();
    const report = await publisher.api(adminKey).get(`/v1/analytics/${TEST_PROJECT}/searches`).expect(200);
    expect(report.body.searches).toEqual([expect.objectContaining({ searchQuery: 'replica search', hits: 1, ctr: 100 })]);
    // Nothing waits to be stored on the replica itself: the beacons went upstream only.
    expect(analyticsOf(replica).flush()).toBe(0);
  });

  it('gives the replica key exactly the replica endpoints', async () => {
    const admin = supertest(publisher.admin);
    await admin.get('/v1/replica/sites').set('Authorization', `Bearer ${replicaKey}`).expect(200);
    await admin.get('/v1/replica/sites').set('Authorization', `Bearer ${adminKey}`).expect(403);
    await admin.get('/v1/replica/sites').expect(401);
    await admin.post(`/v1/project/update/${TEST_PROJECT}`).set('Authorization', `Bearer ${replicaKey}`).expect(403);
    await admin.get(`/v1/analytics/${TEST_PROJECT}/searches`).set('Authorization', `Bearer ${replicaKey}`).expect(403);
    const cli = await runCli(['keys', 'create', '--org', TEST_ORG, '--scopes', 'read,replica', '--config', writeConfig()]);
    expect(cli.code).toBe(2);
    expect(cli.err).toContain('replica scope alone');
  });
});

function writeConfig(): string {
  const file = path.join(root, 'config.json');
  fs.writeFileSync(file, JSON.stringify(publisher.config));
  return file;
}
