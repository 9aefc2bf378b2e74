import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PublishFeature } from '../../app/publish/feature.js';
import { REPLACED_VERSION_GRACE_MS } from '../../app/replica/upstream-routes.js';
import { createTestAppliance, OTHER_ORG, OTHER_PROJECT, TEST_ORG, TEST_PROJECT, writeTinyDocs, type TestAppliance } from '../helpers/appliance.js';
import { runCli } from '../helpers/cli.js';
import { runCliProcess } from '../helpers/serve-process.js';
import { GPTBOT_UA } from '../reader-analytics/helpers.js';

/*
 * Issue 37, finding 5: a replica key follows its own organization's sites, an all-organizations
 * key (made with `keys create --scopes replica --all-organizations`) every organization's, and
 * only the version served (or the one it just replaced) is downloadable. Keys made by the CLI
 * process, used through HTTP against a publishing appliance with two organizations' sites.
 */
let publisher: TestAppliance;
let root: string;
let config: string;
let source: string;
const keys: Record<'a' | 'b' | 'all', string> = { a: '', b: '', all: '' };

const service = () => (publisher.features.find((f) => f.name === 'publish') as PublishFeature).service;
const publish = async (projectId: string) => {
  const record = service().publish(projectId, 'api');
  await service().idle();
  expect(service().status(record.id)!.status).toBe('success');
};
const sites = async (key: string) => (await supertest(publisher.admin).get('/v1/replica/sites').set('Authorization', `Bearer ${key}`).expect(200)).body.sites as { projectId: string; version: string; dirName: string; bundlePath: string }[];
const download = (key: string, projectId: string, dirName: string) => supertest(publisher.admin).get(`/v1/replica/sites/${projectId}/${encodeURIComponent(dirName)}/bundle.zip`).set('Authorization', `Bearer ${key}`);
const activeDir = async (projectId: string) => (await sites(keys.all)).find((s) => s.projectId === projectId)!.dirName;

/** `keys create --scopes replica …`: as its own process (`viaProcess`), else the same CLI in this process. */
async function createKey(args: string[], viaProcess = false): Promise<{ key: string; allOrganizations: boolean }> {
  const argv = ['keys', 'create', '--scopes', 'replica', ...args, '--json', '--config', config];
  const r = viaProcess ? await runCliProcess(argv) : await runCli(argv);
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out) as { key: string; allOrganizations: boolean };
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join((await import('node:os')).tmpdir(), 'replica-scope-'));
  source = writeTinyDocs(path.join(root, 'docs'));
  publisher = createTestAppliance({ sourceDir: source, config: { renderer: { threads: 1 } } });
  await publisher.start();
  config = path.join(root, 'config.json');
  fs.writeFileSync(config, JSON.stringify(publisher.config));
  const [a, b, all] = await Promise.all([createKey(['--org', TEST_ORG]), createKey(['--org', OTHER_ORG]), createKey(['--org', TEST_ORG, '--all-organizations'], true)]);
  expect([a!.allOrganizations, b!.allOrganizations, all!.allOrganizations]).toEqual([false, false, true]);
  Object.assign(keys, { a: a!.key, b: b!.key, all: all!.key });
  await publish(TEST_PROJECT);
  await publish(OTHER_PROJECT);
}, 90_000);

afterAll(async () => {
  vi.useRealTimers();
  await publisher?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('what a replica key reaches', { timeout: 90_000 }, () => {
  it('the CLI names an all-organizations key as such, and refuses the flag on an admin key', async () => {
    const list = await runCliProcess(['keys', 'list', '--config', config]);
    expect(list.code).toBe(0);
    const lines = list.out.trim().split('\n');
    expect(lines.filter((l) => l.includes('  replica,all-organizations  '))).toHaveLength(1);
    expect(lines.filter((l) => / {2}replica {2}/.test(l))).toHaveLength(2);
    // The same CLI in this process (each process start costs seconds here).
    const json = JSON.parse((await runCli(['keys', 'list', '--json', '--config', config])).out) as { scopes: string[]; allOrganizations: boolean }[];
    expect(json.filter((k) => k.allOrganizations).map((k) => k.scopes)).toEqual([['replica']]);
    const plain = await runCli(['keys', 'create', '--org', TEST_ORG, '--scopes', 'replica', '--config', config]);
    expect(plain.out).toContain(`A replica with this key follows the sites of ${TEST_ORG} only (--all-organizations for every organization's).`);
    const refused = await runCli(['keys', 'create', '--org', TEST_ORG, '--scopes', 'read', '--all-organizations', '--config', config]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('--all-organizations is for a replica key (--scopes replica)');
  });

  it('lists its own organization\'s sites, or every organization\'s for an all-organizations key', async () => {
    expect((await sites(keys.a)).map((s) => s.projectId)).toEqual([TEST_PROJECT]);
    expect((await sites(keys.b)).map((s) => s.projectId)).toEqual([OTHER_PROJECT]);
    expect((await sites(keys.all)).map((s) => s.projectId).sort()).toEqual([TEST_PROJECT, OTHER_PROJECT].sort());
  });

  it('downloads only the bundles of projects it reaches: another organization\'s is 404', async () => {
    const [other] = await sites(keys.b);
    const res = await download(keys.a, OTHER_PROJECT, other!.dirName).expect(404);
    expect(res.body.error).toBe(`No route for GET /v1/replica/sites/${OTHER_PROJECT}/${other!.dirName}/bundle.zip`);
    await download(keys.b, OTHER_PROJECT, other!.dirName).expect(200).expect('content-type', 'application/zip');
    await download(keys.all, OTHER_PROJECT, other!.dirName).expect(200);
    await download(keys.b, TEST_PROJECT, await activeDir(TEST_PROJECT)).expect(404);
  });

  it('downloads the version served and the one it replaced while the new one rolls out; a kept version no longer served is 404', async () => {
    const v1 = await activeDir(TEST_PROJECT);
    fs.writeFileSync(path.join(source, 'index.mdx'), '---\ntitle: Home\n---\n\nSecond version.\n');
    await publish(TEST_PROJECT);
    const v2 = await activeDir(TEST_PROJECT);
    expect(v2).not.toBe(v1);
    // Just replaced: a replica that read the list before the swap still gets it.
    await download(keys.a, TEST_PROJECT, v2).expect(200);
    await download(keys.a, TEST_PROJECT, v1).expect(200);
    // Past the grace, the replaced version is a kept version like any other: not downloadable.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + REPLACED_VERSION_GRACE_MS + 1000);
    await download(keys.a, TEST_PROJECT, v1).expect(404);
    await download(keys.a, TEST_PROJECT, v2).expect(200);
    vi.useRealTimers();

    fs.writeFileSync(path.join(source, 'index.mdx'), '---\ntitle: Home\n---\n\nThird version.\n');
    await publish(TEST_PROJECT);
    const v3 = await activeDir(TEST_PROJECT);
    // Kept (the archive is there, a rollback could serve it again), but two activations back.
    expect(service().versions(TEST_PROJECT)).toHaveLength(3);
    expect(fs.existsSync(path.join(publisher.stateDir, 'published', TEST_PROJECT, 'bundles', `${v1}.zip`))).toBe(true);
    await download(keys.a, TEST_PROJECT, v1).expect(404);
    await download(keys.all, TEST_PROJECT, v1).expect(404);
    await download(keys.a, TEST_PROJECT, v3).expect(200);

    // Rolled back to: served again, so downloadable again.
    const admin = publisher.createKey(TEST_ORG);
    const v1Label = service().versions(TEST_PROJECT).find((v) => !v.active && v.lastActivated === service().versions(TEST_PROJECT).map((x) => x.lastActivated).sort()[0])!.version;
    await publisher.api(admin).post(`/v1/project/rollback/${TEST_PROJECT}`).send({ version: v1Label }).expect(202);
    await service().idle();
    expect(await activeDir(TEST_PROJECT)).toBe(v1);
    await download(keys.a, TEST_PROJECT, v1).expect(200);
  });

  it('a long-poll ends on its own organization\'s change only', async () => {
    const poll = (key: string, etag: string) => supertest(publisher.admin).get('/v1/replica/sites?wait=3').set('Authorization', `Bearer ${key}`).set('If-None-Match', etag);
    const etagOf = async (key: string) => (await supertest(publisher.admin).get('/v1/replica/sites').set('Authorization', `Bearer ${key}`).expect(200)).headers.etag as string;
    const [etagA, etagB] = [await etagOf(keys.a), await etagOf(keys.b)];
    const started = Date.now();
    const pollA = poll(keys.a, etagA).then((r) => ({ status: r.status, ms: Date.now() - started }));
    const pollB = poll(keys.b, etagB).then((r) => ({ status: r.status, ms: Date.now() - started }));
    await new Promise((r) => setTimeout(r, 300));
    // org_test's site changes (a rollback is a pointer swap: immediate).
    const admin = publisher.createKey(TEST_ORG);
    const previous = service().versions(TEST_PROJECT).filter((v) => !v.active)[0]!.version;
    await publisher.api(admin).post(`/v1/project/rollback/${TEST_PROJECT}`).send({ version: previous }).expect(202);
    await service().idle();
    const [a, b] = await Promise.all([pollA, pollB]);
    expect(a.status).toBe(200);
    expect(a.ms).toBeLessThan(2500);
    expect(b).toEqual({ status: 304, ms: expect.any(Number) });
    expect(b.ms).toBeGreaterThanOrEqual(2900);
  });

  it('a replica whose key is refused says so in its log and /readyz, and never that a site stays served', async () => {
    const server = http.createServer(publisher.admin);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const KEY_ENV = 'DOCS_APPLIANCE_TEST_REFUSED_REPLICA_KEY';
    process.env[KEY_ENV] = 'mint_' + 'x'.repeat(40);
    const replica = createTestAppliance({
      config: { projects: [], organizations: [], site: { exampleOnFirstStart: false }, replica: { upstreamUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`, keyEnv: KEY_ENV, waitSeconds: 1 } },
    });
    try {
      await replica.start();
      const end = Date.now() + 10_000;
      while (!replica.logs.some((l) => l.includes('following the publisher')) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      const line = JSON.parse(replica.logs.find((l) => l.includes('following the publisher'))!) as Record<string, unknown>;
      expect(line).toMatchObject({ refused: true, serving: 0, msg: 'replica: following the publisher was refused (retrying will not cure it until the replica key or the publisher changes); no site is served yet' });
      expect(line.err).toBe('the publisher answered 401 to GET /v1/replica/sites (check the replica key)');
      const ready = await replica.api().get('/readyz').expect(200);
      expect(ready.body.status).toBe('degraded');
      expect(ready.body.checks.replica).toMatchObject({ ok: false, critical: false, detail: expect.stringContaining('answered 401') });
    } finally {
      await replica.close();
      delete process.env[KEY_ENV];
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('takes forwarded agent views only for sites of the key\'s organization', async () => {
    const post = (host: string, key: string) =>
      supertest(publisher.site).post('/_/events').set('Host', host).set('Content-Type', 'application/json').set('User-Agent', GPTBOT_UA).set('Authorization', `Bearer ${key}`).send(JSON.stringify([{ type: 'agentview', path: '/forged' }]));
    const refused = await post('docs.other.internal', keys.a).expect(400);
    expect(refused.body.rejected[0].message).toMatch(/forwarded by a serving replica only/);
    await post('docs.other.internal', keys.b).expect(202);
    await post('docs.other.internal', keys.all).expect(202);
    await post('docs.test.internal', keys.a).expect(202);
  });
});
