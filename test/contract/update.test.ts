import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths as ExternalPaths } from './generated/external.js';
import { checkAnswer, serverPath } from './hosted-spec.js';
import { createTestAppliance, FREE_ORG, OTHER_ORG, TEST_ORG, type TestAppliance } from '../helpers/appliance.js';
import { createDocsRepo } from '../publish/helpers.js';
import type { PublishFeature } from '../../app/publish/feature.js';

/*
 * Issue 19: the hosted platform's project update operations (`openapi.json`: trigger update,
 * get update status, trigger preview) driven by a client generated from that document, every
 * answer checked against it (documented status: body schema; undocumented: the error shape).
 */
const PROJECT = '111111111111111111111111';
const FREE = '222222222222222222222222';
const FOREIGN = '333333333333333333333333';

let t: TestAppliance;
let repo: ReturnType<typeof createDocsRepo>;
let server: http.Server;
let base: string;
let key: string;

beforeAll(async () => {
  repo = createDocsRepo();
  const sourceDir = path.join(repo.root, 'work', 'docs');
  t = createTestAppliance({
    config: {
      renderer: { threads: 1 },
      projects: [
        { id: PROJECT, orgId: TEST_ORG, name: 'Docs', domain: 'docs.update.internal', sourceDir, repository: repo.bare, branch: 'main', publish: { source: 'git', docsPath: 'docs' } },
        { id: FREE, orgId: FREE_ORG, name: 'Free', domain: 'docs.free-update.internal', sourceDir, repository: repo.bare },
        { id: FOREIGN, orgId: OTHER_ORG, name: 'Foreign', domain: 'docs.foreign.internal', sourceDir },
      ],
    },
  });
  await t.start();
  key = t.createKey();
  server = http.createServer(t.admin);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await t?.close();
  repo?.remove();
});

const client = (k?: string) => createClient<ExternalPaths>({ baseUrl: `${base}${serverPath('external')}`, ...(k ? { headers: { Authorization: `Bearer ${k}` } } : {}) });
function check<R extends { response: Response; data?: unknown; error?: unknown }>(method: string, template: string, r: R): R {
  checkAnswer('external', method, template, { status: r.response.status, headers: r.response.headers, body: r.data ?? r.error });
  return r;
}
const STATUS = '/project/update-status/{statusId}';

async function untilEnded(statusId: string) {
  for (let i = 0; i < 1200; i++) {
    const r = check('GET', STATUS, await client(key).GET(STATUS, { params: { path: { statusId } } }));
    if (r.data?.status === 'success' || r.data?.status === 'failure') return r.data;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`update ${statusId} did not end`);
}

describe('project update operations (openapi.json)', { timeout: 90_000 }, () => {
  it('triggers an update (202 {statusId}) and polls its documented status to success, on every plan', async () => {
    const started = check('POST', '/project/update/{projectId}', await client(key).POST('/project/update/{projectId}', { params: { path: { projectId: PROJECT } } }));
    expect(started.response.status).toBe(202);
    const done = await untilEnded(started.data!.statusId!);
    expect(done).toMatchObject({ _id: started.data!.statusId, projectId: PROJECT, status: 'success', source: 'api', subdomain: 'docs.update.internal', commit: { sha: repo.head() } });
    expect(Date.parse(done.endedAt!)).toBeGreaterThanOrEqual(Date.parse(done.createdAt!));
    // A free plan publishes too (static export keeps its gate; publishing is the core job).
    const free = check('POST', '/project/update/{projectId}', await client(t.createKey(FREE_ORG)).POST('/project/update/{projectId}', { params: { path: { projectId: FREE } } }));
    expect(free.response.status).toBe(202);
  });

  it('answers unknown and foreign projects and statuses 404, no key 401, in the error shape', async () => {
    expect(check('POST', '/project/update/{projectId}', await client(key).POST('/project/update/{projectId}', { params: { path: { projectId: FOREIGN } } })).response.status).toBe(404);
    expect(check('GET', STATUS, await client(key).GET(STATUS, { params: { path: { statusId: '0'.repeat(24) } } })).response.status).toBe(404);
    const foreign = await client(t.createKey(OTHER_ORG)).POST('/project/update/{projectId}', { params: { path: { projectId: FOREIGN } } });
    expect(check('GET', STATUS, await client(key).GET(STATUS, { params: { path: { statusId: foreign.data!.statusId! } } })).response.status).toBe(404);
    expect(check('POST', '/project/update/{projectId}', await client().POST('/project/update/{projectId}', { params: { path: { projectId: PROJECT } } })).response.status).toBe(401);
    const readOnly = client(t.createKey(TEST_ORG, { scopes: ['read'] }));
    expect(check('POST', '/project/update/{projectId}', await readOnly.POST('/project/update/{projectId}', { params: { path: { projectId: PROJECT } } })).response.status).toBe(403);
    await (t.features.find((f) => f.name === 'publish') as PublishFeature).service.idle();
  });

  it('queues a preview (202 {statusId, previewUrl}); 400 without a branch; 403 with the documented body off enterprise; 429 past 5 a minute', async () => {
    const route = '/project/preview/{projectId}';
    const started = check('POST', route, await client(key).POST(route, { params: { path: { projectId: PROJECT } }, body: { branch: 'main' } }));
    expect(started.response.status).toBe(202);
    expect(started.data!.previewUrl).toBe('https://main.preview.docs.update.internal/');
    expect((await untilEnded(started.data!.statusId!)).status).toBe('success');
    expect(check('POST', route, await client(key).POST(route, { params: { path: { projectId: PROJECT } }, body: {} as { branch: string } })).response.status).toBe(400);
    expect(check('POST', route, await client(key).POST(route, { params: { path: { projectId: PROJECT } }, body: { branch: '--upload-pack=x' } })).response.status).toBe(400);
    const free = check('POST', route, await client(t.createKey(FREE_ORG)).POST(route, { params: { path: { projectId: FREE } }, body: { branch: 'main' } }));
    expect(free.response.status).toBe(403);
    expect(free.error).toEqual({ error: 'Preview deployments requires the enterprise plan' });
    let limited = 0;
    for (let i = 0; i < 5; i++) {
      const r = check('POST', route, await client(key).POST(route, { params: { path: { projectId: PROJECT } }, body: { branch: 'main' } }));
      if (r.response.status === 429) limited += 1;
    }
    // The organization's bucket: 3 requests above (the 403 is another org), then 2 more, then 429s.
    expect(limited).toBe(3);
  });
});
