import http from 'node:http';
import type { AddressInfo } from 'node:net';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths as ExternalPaths } from './generated/external.js';
import { checkAnswer, serverPath } from './hosted-spec.js';
import { createAgentAppliance, pollUntilDone } from '../agent/helpers/agent-appliance.js';
import { startFakeGitHost } from '../agent/helpers/fake-git-host.js';
import { finish, startFakeModel, toolCall, type FakeModel } from '../agent/helpers/fake-model.js';
import { createBareRemote, type BareRemote } from '../agent/helpers/git-remote.js';
import { OTHER_ORG, OTHER_PROJECT, TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';
import { createCodeRepo } from '../automations/helpers.js';

/*
 * Issue 42: the hosted "Trigger automation" (`openapi.json` POST /workflow/{projectId}/{workflowSchemaId}/trigger)
 * driven by a client generated from the published document, every answer checked against it
 * (documented status: body schema; undocumented: the error shape).
 */
const OP = '/workflow/{projectId}/{workflowSchemaId}/trigger';

let t: TestAppliance;
let model: FakeModel;
let remote: BareRemote;
let code: Awaited<ReturnType<typeof createCodeRepo>>;
let host: Awaited<ReturnType<typeof startFakeGitHost>>;
let server: http.Server;
let base: string;
let key: string;

beforeAll(async () => {
  remote = createBareRemote();
  code = await createCodeRepo();
  model = await startFakeModel([toolCall('write_file', { path: 'guides/limits.mdx', content: '---\ntitle: Limits\n---\n\nUp to 10 users.\n' }), finish('Documented the user limits.')]);
  host = await startFakeGitHost();
  t = createAgentAppliance({
    modelUrl: model.baseUrl,
    repository: remote.bare,
    gitHostUrl: host.apiUrl,
    automations: [
      { id: 'code-sync', name: 'Update from code', predefined: 'update-from-code', trigger: { type: 'schedule', cron: '0 6 * * *' }, contextRepositories: [{ url: code.url }] },
      { id: 'on-push', name: 'On push', instruction: 'Update the API pages.', trigger: { type: 'push' } },
    ],
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
  await host?.close();
  await model?.close();
  await code?.remove();
  remote?.remove();
});

const client = (k?: string) => createClient<ExternalPaths>({ baseUrl: `${base}${serverPath('external')}`, ...(k ? { headers: { Authorization: `Bearer ${k}` } } : {}) });
const trigger = async (projectId: string, workflowSchemaId: string, k: string | null = key) => {
  const r = await client(k ?? undefined).POST(OP, { params: { path: { projectId, workflowSchemaId } } });
  checkAnswer('external', 'POST', OP, { status: r.response.status, headers: r.response.headers, body: r.data ?? r.error });
  return r;
};

describe('Trigger automation (openapi.json)', { timeout: 90_000 }, () => {
  it('runs a scheduled automation at once: 202 {schemaId, instanceId, jobId}, the job followed to its pull request', async () => {
    const r = await trigger(TEST_PROJECT, 'code-sync');
    expect(r.response.status).toBe(202);
    expect(r.data).toEqual({ schemaId: 'code-sync', instanceId: expect.stringMatching(/^run_/), jobId: expect.stringMatching(/^aj_/) });
    expect((await pollUntilDone(t, key, r.data!.jobId!)).body).toMatchObject({ status: 'completed', prLink: 'http://git.test.internal/pulls/1' });
  });

  it('answers the documented 400 and 404, and the error shape elsewhere', async () => {
    const push = await trigger(TEST_PROJECT, 'on-push');
    expect(push.response.status).toBe(400);
    expect(push.error).toEqual({ error: expect.stringMatching(/not configured with a custom schedule/) });
    expect((await trigger(TEST_PROJECT, 'bad id')).response.status).toBe(400);
    expect((await trigger(TEST_PROJECT, 'unknown')).response.status).toBe(404);
    expect((await trigger(OTHER_PROJECT, 'code-sync')).response.status).toBe(404);
    expect((await trigger(OTHER_PROJECT, 'code-sync', t.createKey(OTHER_ORG))).response.status).toBe(404);
    expect((await trigger(TEST_PROJECT, 'code-sync', null)).response.status).toBe(401);
    expect((await trigger(TEST_PROJECT, 'code-sync', t.createKey(undefined, { scopes: ['read'] }))).response.status).toBe(403);
  });

  it('shares the hosted limit: 10 requests per 10 seconds per organization', async () => {
    let status = 0;
    for (let i = 0; i < 12 && status !== 429; i++) status = (await trigger(TEST_PROJECT, 'unknown')).response.status;
    expect(status).toBe(429);
    t.clock.advance(10_001);
    expect((await trigger(TEST_PROJECT, 'unknown')).response.status).toBe(404);
  });
});
