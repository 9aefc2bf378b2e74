import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths as AdminPaths } from './generated/admin.js';
import type { paths as AnalyticsPaths } from './generated/analytics.js';
import type { paths as ExportPaths } from './generated/static-export.js';
import { createConversationStore } from '../../app/assistant/conversations.js';
import { checkAnswer, operations, seen, serverPath, undocumented, type DocName } from './hosted-spec.js';
import { createTestAppliance, FREE_ORG, OTHER_PROJECT, TEST_ORG, TEST_PROJECT, writeTinyDocs, type TestAppliance } from '../helpers/appliance.js';
import { runCli } from '../helpers/cli.js';
import { startFakeGitHost } from '../agent/helpers/fake-git-host.js';
import { finish, say, startFakeModel, toolCall, type FakeModel } from '../agent/helpers/fake-model.js';
import { createBareRemote, type BareRemote } from '../agent/helpers/git-remote.js';
import { importEvents } from '../analytics/helpers.js';
import type { ReaderAnalyticsFeature } from '../../app/reader-analytics/feature.js';
import { sseEvents } from '../agent/helpers/sse.js';

/*
 * Issue 17: a hosted client works by changing only its base URL. A client generated from the
 * hosted platform's own documents (openapi-typescript types, openapi-fetch at run time) drives
 * a real admin listener on an ephemeral port through every operation the appliance serves; every
 * answer is checked against those documents with ajv (documented status: content type, headers,
 * body; undocumented status: the documented error shape). See docs/compatibility.md.
 */

/** Operations of the documents the appliance does not serve yet (404), and the issue that will serve them (docs/compatibility.md). */
const NOT_SERVED: Record<string, string> = {
};

let t: TestAppliance;
let model: FakeModel;
let remote: BareRemote;
let host: Awaited<ReturnType<typeof startFakeGitHost>>;
let server: http.Server;
let base: string;
let fullKey: string;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'contract-'));

beforeAll(async () => {
  // The coverage check below counts this file's answers only: test files share a fork's modules
  // (vitest isolate: false), and other contract files record their answers in the same maps.
  seen.clear();
  undocumented.clear();
  remote = createBareRemote();
  model = await startFakeModel();
  host = await startFakeGitHost();
  const sourceDir = writeTinyDocs(path.join(tmp, 'docs'));
  t = createTestAppliance({
    sourceDir,
    config: {
      renderer: { threads: 1 },
      agent: { baseUrl: model.baseUrl, model: 'test-model', timeoutSeconds: 20 },
      organizations: [
        { id: TEST_ORG, name: 'Test', plan: 'enterprise' },
        { id: 'org_other', name: 'Other', plan: 'enterprise' },
        { id: FREE_ORG, name: 'Free', plan: 'free' },
      ],
      projects: [
        { id: TEST_PROJECT, orgId: TEST_ORG, name: 'Test docs', domain: 'docs.test.internal', sourceDir, repository: remote.bare, branch: 'main', gitHost: { type: 'gitea', apiUrl: host.apiUrl } },
        { id: OTHER_PROJECT, orgId: 'org_other', name: 'Other docs', domain: 'docs.other.internal', sourceDir },
        { id: 'cccccccccccccccccccccccc', orgId: FREE_ORG, name: 'Free docs', domain: 'docs.free.internal', sourceDir },
      ],
    },
  });
  await t.start();
  fullKey = t.createKey();
  server = http.createServer(t.admin);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await t?.close();
  await model?.close();
  await host?.close();
  remote?.remove();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const auth = (key: string) => ({ Authorization: `Bearer ${key}` });
const exportClient = (key?: string) => createClient<ExportPaths>({ baseUrl: `${base}${serverPath('static-export')}`, ...(key ? { headers: auth(key) } : {}) });
const adminClient = (key?: string) => createClient<AdminPaths>({ baseUrl: `${base}${serverPath('admin')}`, ...(key ? { headers: auth(key) } : {}) });
const analyticsClient = (key?: string) => createClient<AnalyticsPaths>({ baseUrl: `${base}${serverPath('analytics')}`, ...(key ? { headers: auth(key) } : {}) });

/** Check an openapi-fetch result against the document and hand it back. */
function check<R extends { response: Response; data?: unknown; error?: unknown }>(doc: DocName, method: string, template: string, r: R): R {
  checkAnswer(doc, method, template, { status: r.response.status, headers: r.response.headers, body: r.data ?? r.error });
  return r;
}

/** A raw request (what the typed client cannot send: no key, a wrong media type, a body too large), checked the same way. */
async function raw(doc: DocName, method: string, template: string, url: string, init: RequestInit = {}): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${base}${serverPath(doc)}${url}`, { method, ...init });
  const text = await res.text();
  let body: unknown = text;
  if ((res.headers.get('content-type') ?? '').startsWith('application/json')) body = JSON.parse(text);
  checkAnswer(doc, method, template, { status: res.status, headers: res.headers, body });
  return { status: res.status, body };
}

/** Pipe a download through a real `tar xz` (as `curl "$bundleUrl" | tar xz`) and check every file against manifest.json. */
async function curlTarXz(url: string): Promise<{ manifest: { jobId: string; files: Array<{ path: string; size: number; sha256: string }> }; files: number }> {
  const dir = fs.mkdtempSync(path.join(tmp, 'tar-'));
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/gzip');
  await new Promise<void>((resolve, reject) => {
    const tar = spawn('tar', ['xz', '-C', dir], { stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    tar.stderr.on('data', (c: Buffer) => (err += c.toString()));
    tar.on('error', reject);
    tar.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`tar xz exited with ${code}: ${err}`))));
    Readable.fromWeb(res.body as WebReadableStream<Uint8Array>).pipe(tar.stdin);
  });
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { jobId: string; files: Array<{ path: string; size: number; sha256: string }> };
  for (const f of manifest.files) {
    const bytes = fs.readFileSync(path.join(dir, f.path));
    expect(bytes.length, f.path).toBe(f.size);
    expect(crypto.createHash('sha256').update(bytes).digest('hex'), f.path).toBe(f.sha256);
  }
  const onDisk = (fs.readdirSync(dir, { recursive: true }) as string[]).filter((n) => fs.statSync(path.join(dir, n)).isFile() && n !== 'manifest.json');
  expect(onDisk.sort()).toEqual(manifest.files.map((f) => f.path).sort());
  return { manifest, files: onDisk.length };
}

async function untilCompleted(key: string, jobId: string) {
  const client = exportClient(key);
  for (let i = 0; i < 600; i++) {
    const r = check('static-export', 'GET', '/static-export/jobs/{jobId}', await client.GET('/static-export/jobs/{jobId}', { params: { path: { jobId } } }));
    if (r.data?.status === 'completed' || r.data?.status === 'failed') return r.data;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`export ${jobId} did not finish`);
}

describe('static export (static-export-openapi.json)', { timeout: 60_000 }, () => {
  it('runs start → poll → bundle with a write-only key; the default bundle goes through `tar xz`', async () => {
    const writeOnly = t.createKey(TEST_ORG, { scopes: ['write'] });
    const client = exportClient(writeOnly);
    const started = check('static-export', 'POST', '/static-export/jobs', await client.POST('/static-export/jobs', { body: { domain: 'docs.test.internal' } }));
    expect(started.response.status).toBe(202);
    const done = await untilCompleted(writeOnly, started.data!.jobId);
    expect(done.status).toBe('completed');

    const bundle = check('static-export', 'POST', '/static-export/jobs/{jobId}/bundle', await client.POST('/static-export/jobs/{jobId}/bundle', { params: { path: { jobId: done.jobId } } }));
    expect(bundle.response.status).toBe(200);
    expect(new URL(bundle.data!.bundleUrl).pathname).toBe(`/v1/static-export/jobs/${done.jobId}/bundle.tar.gz`);
    const { manifest, files } = await curlTarXz(bundle.data!.bundleUrl);
    expect(manifest.jobId).toBe(done.jobId);
    expect(files).toBeGreaterThan(3);

    // The zip through the documented request field of the appliance (the published operation has no body).
    const zip = await raw('static-export', 'POST', '/static-export/jobs/{jobId}/bundle', `/static-export/jobs/${done.jobId}/bundle`, {
      headers: { ...auth(writeOnly), 'content-type': 'application/json' },
      body: JSON.stringify({ format: 'zip' }),
    });
    expect(new URL((zip.body as { bundleUrl: string }).bundleUrl).pathname).toBe(`/v1/static-export/jobs/${done.jobId}/bundle.zip`);
    const zipRes = await fetch((zip.body as { bundleUrl: string }).bundleUrl);
    expect(zipRes.headers.get('content-type')).toBe('application/zip');
    expect((await zipRes.arrayBuffer()).byteLength).toBe((zip.body as { sizeBytes: number }).sizeBytes);
  });

  it('answers the documented errors (400, 401, 403, 404, 409) in the documented shape', async () => {
    const client = exportClient(fullKey);
    expect(check('static-export', 'POST', '/static-export/jobs', await client.POST('/static-export/jobs', { body: { domain: 'https://docs.test.internal' } })).response.status).toBe(400);
    const free = exportClient(t.createKey(FREE_ORG));
    expect(check('static-export', 'POST', '/static-export/jobs', await free.POST('/static-export/jobs', { body: { domain: 'docs.free.internal' } })).response.status).toBe(403);
    const unknown = { params: { path: { jobId: 'se_0000000000000000' } } };
    expect(check('static-export', 'GET', '/static-export/jobs/{jobId}', await client.GET('/static-export/jobs/{jobId}', unknown)).response.status).toBe(404);
    expect(check('static-export', 'POST', '/static-export/jobs/{jobId}/bundle', await client.POST('/static-export/jobs/{jobId}/bundle', unknown)).response.status).toBe(404);
    // A job still queued (created without waking the queue) has no bundle yet.
    const queued = t.ctx.stores.exportJobs.create({ id: 'se_00000000000000aa', orgId: TEST_ORG, projectId: TEST_PROJECT, domain: 'docs.test.internal', requestedVersion: undefined, paths: undefined });
    const conflict = check('static-export', 'POST', '/static-export/jobs/{jobId}/bundle', await client.POST('/static-export/jobs/{jobId}/bundle', { params: { path: { jobId: queued.id } } }));
    expect(conflict.response.status).toBe(409);
    for (const [method, template, url] of [
      ['POST', '/static-export/jobs', '/static-export/jobs'],
      ['GET', '/static-export/jobs/{jobId}', '/static-export/jobs/se_0000000000000000'],
      ['POST', '/static-export/jobs/{jobId}/bundle', '/static-export/jobs/se_0000000000000000/bundle'],
    ] as const) {
      expect((await raw('static-export', method, template, url)).status).toBe(401);
    }
  });

  it('keeps the error shape for statuses the document does not declare (403 scope, 413, 415) and ignores unknown body fields', async () => {
    const reader = t.createKey(TEST_ORG, { scopes: ['read'] });
    expect((await raw('static-export', 'POST', '/static-export/jobs/{jobId}/bundle', '/static-export/jobs/se_0000000000000000/bundle', { headers: auth(reader) })).status).toBe(403);
    const json = { ...auth(fullKey), 'content-type': 'application/json' };
    expect((await raw('static-export', 'POST', '/static-export/jobs', '/static-export/jobs', { headers: json, body: JSON.stringify({ domain: 'x'.repeat(2_000_000) }) })).status).toBe(413);
    expect((await raw('static-export', 'POST', '/static-export/jobs', '/static-export/jobs', { headers: { ...auth(fullKey), 'content-type': 'text/plain' }, body: 'docs.test.internal' })).status).toBe(415);
    // Not in the published schema, not forbidden by it: accepted.
    const extra = await raw('static-export', 'POST', '/static-export/jobs', '/static-export/jobs', { headers: json, body: JSON.stringify({ domain: 'docs.test.internal', format: 'html', callbackUrl: 'https://ci.example/hook' }) });
    expect(extra.status).toBe(202);
    await untilCompleted(fullKey, (extra.body as { jobId: string }).jobId);
  });
});

describe('analytics (analytics.openapi.json)', () => {
  it('pages search terms with a cursor, for a write-only key too; 400 documented, 401 and 404 in the error shape', async () => {
    const at = t.clock.now().getTime() - 3600_000;
    await importEvents(t, [
      { type: 'search', projectId: TEST_PROJECT, query: 'install', sessionId: 's1', atMs: at },
      { type: 'click', projectId: TEST_PROJECT, query: 'install', sessionId: 's1', atMs: at + 1000, path: '/guides/intro' },
      { type: 'search', projectId: TEST_PROJECT, query: 'upgrade', sessionId: 's2', atMs: at + 2000 },
    ]);
    const client = analyticsClient(t.createKey(TEST_ORG, { scopes: ['write'] }));
    const route = '/v1/analytics/{projectId}/searches';
    const first = check('analytics', 'GET', route, await client.GET(route, { params: { path: { projectId: TEST_PROJECT }, query: { limit: 1 } } }));
    expect(first.response.status).toBe(200);
    expect(first.data!.searches).toHaveLength(1);
    const next = check('analytics', 'GET', route, await client.GET(route, { params: { path: { projectId: TEST_PROJECT }, query: { cursor: first.data!.nextCursor! } } }));
    expect(next.data!.searches.map((s) => s.searchQuery)).toEqual(['upgrade']);
    expect(check('analytics', 'GET', route, await client.GET(route, { params: { path: { projectId: TEST_PROJECT }, query: { limit: 500 } } })).response.status).toBe(400);
    expect((await raw('analytics', 'GET', route, `/v1/analytics/${TEST_PROJECT}/searches`)).status).toBe(401);
    expect((await raw('analytics', 'GET', route, `/v1/analytics/${OTHER_PROJECT}/searches`, { headers: auth(fullKey) })).status).toBe(404);
  });
});

describe('reader analytics (analytics.openapi.json)', () => {
  it('reports views, visitors, feedback and feedback by page; offset and cursor paging; 400 documented, 401 and 404 in the error shape', async () => {
    const readers = t.features.find((f) => f.name === 'reader-analytics') as ReaderAnalyticsFeature;
    const now = t.clock.now().getTime();
    const browser = { ip: '203.0.113.5', userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0' };
    readers.ingest.accept(TEST_PROJECT, [
      { kind: 'view', path: '/quickstart', viewId: 'c1' },
      { kind: 'view', path: '/guides/intro', viewId: 'c2' },
      { kind: 'feedback', input: { publicId: 'fb-a', path: '/quickstart', source: 'contextual', helpful: false, reason: null, comment: 'Step 3 fails', code: null, filename: null, lang: null } },
      { kind: 'feedback', input: { publicId: 'fb-b', path: '/quickstart', source: 'code_snippet', helpful: null, reason: null, comment: 'typo', code: 'npm i', filename: null, lang: 'bash' } },
    ], browser, now);
    readers.ingest.acceptAgentView(TEST_PROJECT, '/quickstart', { ip: '192.0.2.9', userAgent: 'GPTBot/1.2' }, now);
    const client = analyticsClient(fullKey);
    const projectId = TEST_PROJECT;
    const views = check('analytics', 'GET', '/v1/analytics/{projectId}/views', await client.GET('/v1/analytics/{projectId}/views', { params: { path: { projectId }, query: { limit: 1 } } }));
    expect(views.data).toEqual({ totals: { human: 2, ai: 1, total: 3 }, views: [{ path: '/quickstart', human: 1, ai: 1, total: 2 }], hasMore: true });
    const rest = check('analytics', 'GET', '/v1/analytics/{projectId}/views', await client.GET('/v1/analytics/{projectId}/views', { params: { path: { projectId }, query: { limit: 1, offset: 1 } } }));
    expect(rest.data!.views.map((v) => v.path)).toEqual(['/guides/intro']);
    const visitors = check('analytics', 'GET', '/v1/analytics/{projectId}/visitors', await client.GET('/v1/analytics/{projectId}/visitors', { params: { path: { projectId } } }));
    expect(visitors.data!.totals).toEqual({ human: 1, ai: 1, total: 2 });
    const route = '/v1/analytics/{projectId}/feedback';
    const first = check('analytics', 'GET', route, await client.GET(route, { params: { path: { projectId }, query: { limit: 1 } } }));
    expect(first.data!.hasMore).toBe(true);
    const second = check('analytics', 'GET', route, await client.GET(route, { params: { path: { projectId }, query: { limit: 1, cursor: first.data!.nextCursor! } } }));
    expect([...first.data!.feedback, ...second.data!.feedback].map((f) => f.id).sort()).toEqual(['fb-a', 'fb-b']);
    expect(second.data!.nextCursor).toBeNull();
    const code = check('analytics', 'GET', route, await client.GET(route, { params: { path: { projectId }, query: { source: 'code_snippet' } } }));
    expect(code.data!.feedback).toEqual([expect.objectContaining({ id: 'fb-b', code: 'npm i', lang: 'bash', filename: null, status: 'pending' })]);
    const byPage = check('analytics', 'GET', '/v1/analytics/{projectId}/feedback/by-page', await client.GET('/v1/analytics/{projectId}/feedback/by-page', { params: { path: { projectId }, query: { status: 'pending' } } }));
    expect(byPage.data).toEqual({ feedback: [{ path: '/quickstart', thumbsUp: 0, thumbsDown: 1, code: 1, total: 2 }], hasMore: false });
    expect(check('analytics', 'GET', '/v1/analytics/{projectId}/views', await client.GET('/v1/analytics/{projectId}/views', { params: { path: { projectId }, query: { limit: 251 } } })).response.status).toBe(400);
    expect(check('analytics', 'GET', route, await client.GET(route, { params: { path: { projectId }, query: { status: 'open' } } })).response.status).toBe(400);
    expect((await raw('analytics', 'GET', '/v1/analytics/{projectId}/visitors', `/v1/analytics/${TEST_PROJECT}/visitors`)).status).toBe(401);
    expect((await raw('analytics', 'GET', '/v1/analytics/{projectId}/feedback/by-page', `/v1/analytics/${OTHER_PROJECT}/feedback/by-page`, { headers: auth(fullKey) })).status).toBe(404);
  });
});

describe('agent v2 (admin-openapi.json)', { timeout: 60_000 }, () => {
  it('creates a job, polls it to its pull request, sends a follow-up; 400, 404 documented; 401, 409 in the error shape', async () => {
    model.push(toolCall('write_file', { path: 'index.mdx', content: 'changed\n' }), finish('Changed the home page.'));
    const client = adminClient(fullKey);
    const params = { path: { projectId: TEST_PROJECT } };
    const created = check('admin', 'POST', '/v2/agent/{projectId}/job', await client.POST('/v2/agent/{projectId}/job', { params, body: { prompt: 'Change the home page' } }));
    expect(created.response.status).toBe(201);
    const id = created.data!.id!;
    let job = created.data!;
    while (job.status === 'active') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      job = check('admin', 'GET', '/v2/agent/{projectId}/job/{id}', await client.GET('/v2/agent/{projectId}/job/{id}', { params: { path: { projectId: TEST_PROJECT, id } } })).data!;
    }
    expect(job).toMatchObject({ status: 'completed', prLink: 'http://git.test.internal/pulls/1' });

    model.push(say('Nothing else to change.'));
    const followUp = check('admin', 'POST', '/v2/agent/{projectId}/job/{id}/message', await client.POST('/v2/agent/{projectId}/job/{id}/message', { params: { path: { projectId: TEST_PROJECT, id } }, body: { prompt: 'Anything else?' } }));
    expect(followUp.response.status).toBe(200);
    while (t.ctx.stores.agentJobs.get(id)!.status === 'active') await new Promise((resolve) => setTimeout(resolve, 100));

    expect(check('admin', 'POST', '/v2/agent/{projectId}/job', await client.POST('/v2/agent/{projectId}/job', { params, body: { prompt: '' } })).response.status).toBe(400);
    const unknown = { params: { path: { projectId: TEST_PROJECT, id: 'aj_00000000000000000000' } } };
    expect(check('admin', 'GET', '/v2/agent/{projectId}/job/{id}', await client.GET('/v2/agent/{projectId}/job/{id}', unknown)).response.status).toBe(404);
    expect(check('admin', 'POST', '/v2/agent/{projectId}/job/{id}/message', await client.POST('/v2/agent/{projectId}/job/{id}/message', { ...unknown, body: { prompt: 'x' } })).response.status).toBe(404);
    expect((await raw('admin', 'GET', '/v2/agent/{projectId}/job/{id}', `/v2/agent/${TEST_PROJECT}/job/${id}`)).status).toBe(401);
    t.ctx.stores.agentJobs.archive(id);
    const archived = await raw('admin', 'POST', '/v2/agent/{projectId}/job/{id}/message', `/v2/agent/${TEST_PROJECT}/job/${id}/message`, {
      headers: { ...auth(fullKey), 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'again' }),
    });
    expect(archived.status).toBe(409);
  });
});

describe('agent v1, deprecated (admin-openapi.json)', { timeout: 60_000 }, () => {
  it('creates a job as an event stream, gets it and lists it; undocumented statuses in the error shape', async () => {
    model.push(toolCall('write_file', { path: 'guides/intro.mdx', content: 'new\n' }), finish('Rewrote the introduction.'));
    const client = adminClient(fullKey);
    const params = { path: { projectId: TEST_PROJECT } };
    const created = check(
      'admin',
      'POST',
      '/v1/agent/{projectId}/job',
      await client.POST('/v1/agent/{projectId}/job', { params, body: { messages: [{ role: 'user', content: 'Rewrite the introduction' }], asDraft: true, model: 'sonnet' }, parseAs: 'text' }),
    );
    expect(created.response.status).toBe(200);
    const events = sseEvents(String(created.data));
    expect(events.at(-1)).toBe('[DONE]');
    const sessionId = created.response.headers.get('x-session-id')!;
    expect(host.pullRequests().at(-1)!.body).toMatchObject({ title: 'WIP: docs-agent: Rewrite the introduction', head: created.response.headers.get('x-branch-name') });

    const got = check('admin', 'GET', '/v1/agent/{projectId}/job/{id}', await client.GET('/v1/agent/{projectId}/job/{id}', { params: { path: { projectId: TEST_PROJECT, id: sessionId } } }));
    expect(got.data).toMatchObject({ sessionId, haulted: true, haultReason: 'completed', pullRequestLink: expect.stringMatching(/^http:\/\/git\.test\.internal\/pulls\/\d+$/) });
    const list = check('admin', 'GET', '/v1/agent/{projectId}/jobs', await client.GET('/v1/agent/{projectId}/jobs', { params: { path: { projectId: TEST_PROJECT }, query: { take: 100 } } }));
    expect(list.data!.allSessions!.map((s) => s.sessionId)).toContain(sessionId);

    const json = { ...auth(fullKey), 'content-type': 'application/json' };
    expect((await raw('admin', 'POST', '/v1/agent/{projectId}/job', `/v1/agent/${TEST_PROJECT}/job`, { headers: json, body: JSON.stringify({ messages: [] }) })).status).toBe(400);
    expect((await raw('admin', 'GET', '/v1/agent/{projectId}/job/{id}', `/v1/agent/${TEST_PROJECT}/job/aj_00000000000000000000`, { headers: auth(fullKey) })).status).toBe(404);
    expect((await raw('admin', 'GET', '/v1/agent/{projectId}/jobs', `/v1/agent/${TEST_PROJECT}/jobs?take=101`, { headers: auth(fullKey) })).status).toBe(400);
    expect((await raw('admin', 'GET', '/v1/agent/{projectId}/jobs', `/v1/agent/${OTHER_PROJECT}/jobs`, { headers: auth(fullKey) })).status).toBe(404);
  });
});

describe('a key imported with `keys import` (the key a hosted script already holds)', () => {
  it('is accepted by every API after the import, read from standard input', async () => {
    const hosted = `mint_${crypto.randomBytes(30).toString('base64url').replace(/[-_]/g, 'x')}`;
    const configFile = path.join(tmp, 'config.json');
    fs.writeFileSync(configFile, JSON.stringify(t.config));
    const imported = await runCli(['keys', 'import', '--org', TEST_ORG, '--scopes', 'write', '--config', configFile], { stdin: `${hosted}\n` });
    expect(imported.code, imported.err).toBe(0);
    expect(imported.out + imported.err).not.toContain(hosted);
    const list = check('admin', 'GET', '/v1/agent/{projectId}/jobs', await adminClient(hosted).GET('/v1/agent/{projectId}/jobs', { params: { path: { projectId: TEST_PROJECT } } }));
    expect(list.response.status).toBe(200);
    const route = '/v1/analytics/{projectId}/searches';
    expect(check('analytics', 'GET', route, await analyticsClient(hosted).GET(route, { params: { path: { projectId: TEST_PROJECT } } })).response.status).toBe(200);
    const started = check('static-export', 'POST', '/static-export/jobs', await exportClient(hosted).POST('/static-export/jobs', { body: { domain: 'docs.test.internal', paths: ['index'] } }));
    expect(started.response.status).toBe(202);
    expect((await untilCompleted(hosted, started.data!.jobId)).status).toBe('completed');
  });
});

describe('limits and faults the documents do not declare', () => {
  it('answers 429 (documented for agent create) and 503 (undeclared) in the error shape', async () => {
    // The agent's hourly bucket used up: the documented 429.
    for (let i = 0; i < t.config.agent.rateLimitPerHour; i++) t.ctx.stores.rateLimits.hit(`agent:${TEST_PROJECT}`, t.config.agent.rateLimitPerHour, 3600_000);
    const limited = check('admin', 'POST', '/v2/agent/{projectId}/job', await adminClient(fullKey).POST('/v2/agent/{projectId}/job', { params: { path: { projectId: TEST_PROJECT } }, body: { prompt: 'x' } }));
    expect(limited.response.status).toBe(429);
    expect(limited.response.headers.get('retry-after')).toMatch(/^\d+$/);
    // A read-only state directory: a write is refused with 503, nothing saved.
    t.ctx.db.pragma('query_only = ON');
    try {
      const refused = await raw('static-export', 'POST', '/static-export/jobs', '/static-export/jobs', { headers: { ...auth(fullKey), 'content-type': 'application/json' }, body: JSON.stringify({ domain: 'docs.test.internal' }) });
      expect(refused.status).toBe(503);
    } finally {
      t.ctx.db.pragma('query_only = OFF');
    }
  });
});

describe('coverage of the published documents', () => {
  it('serves the assistant analytics operations from stored conversations', async () => {
    const store = createConversationStore(t.ctx.db, () => new Date());
    const threadId = store.thread(TEST_PROJECT, null);
    for (const [i, caller, query] of [[2, 'web', 'How do refunds work?'], [1, 'api', 'And invoices?']] as const) {
      const askedAt = new Date(Date.now() - i * 1000);
      store.addTurn({ threadId, projectId: TEST_PROJECT, caller, askedAt, answeredAt: askedAt, query, response: 'See [Billing](/billing/).', sources: [{ title: 'Billing', url: '/billing/' }], resolution: 'answered', pageUrl: null });
    }
    const list = await raw('analytics', 'GET', '/v1/analytics/{projectId}/assistant', `/v1/analytics/${TEST_PROJECT}/assistant?limit=1`, { headers: auth(fullKey) });
    expect(list.body).toMatchObject({ hasMore: true, conversations: [{ query: 'How do refunds work?', resolutionStatus: 'answered' }] });
    const next = await raw('analytics', 'GET', '/v1/analytics/{projectId}/assistant', `/v1/analytics/${TEST_PROJECT}/assistant?cursor=${(list.body as { nextCursor: string }).nextCursor}`, { headers: auth(fullKey) });
    expect(next.body).toMatchObject({ hasMore: false, nextCursor: null, conversations: [{ query: 'And invoices?' }] });
    const thread = await raw('analytics', 'GET', '/v1/analytics/{projectId}/assistant/threads/{threadId}', `/v1/analytics/${TEST_PROJECT}/assistant/threads/${threadId}`, { headers: auth(fullKey) });
    expect((thread.body as { messages: { role: string }[] }).messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect((await raw('analytics', 'GET', '/v1/analytics/{projectId}/assistant/threads/{threadId}', `/v1/analytics/${TEST_PROJECT}/assistant/threads/01ARZ3NDEKTSV4RRFFQ69G5FAV`, { headers: auth(fullKey) })).status).toBe(404);
    // Another organization's project is not found, whatever its threads.
    expect((await raw('analytics', 'GET', '/v1/analytics/{projectId}/assistant/threads/{threadId}', `/v1/analytics/${OTHER_PROJECT}/assistant/threads/${threadId}`, { headers: auth(fullKey) })).status).toBe(404);
    const stats = await raw('analytics', 'GET', '/v1/analytics/{projectId}/assistant/caller-stats', `/v1/analytics/${TEST_PROJECT}/assistant/caller-stats?dateFrom=2020-01-01`, { headers: auth(fullKey) });
    expect(stats.body).toEqual({ web: 1, api: 1, other: 0, total: 2 });
    expect((await raw('analytics', 'GET', '/v1/analytics/{projectId}/assistant/caller-stats', `/v1/analytics/${TEST_PROJECT}/assistant/caller-stats?dateFrom=nope`, { headers: auth(fullKey) })).status).toBe(400);
  });

  it('answers the operations it does not serve yet with 404 in the error shape', async () => {
    for (const key of Object.keys(NOT_SERVED)) {
      const [doc, method, template] = key.split(' ') as [DocName, string, string];
      const url = template.replace('{projectId}', TEST_PROJECT).replace('{threadId}', 'thread_1');
      expect((await raw(doc, method, template, url, { headers: auth(fullKey) })).status, key).toBe(404);
    }
  });

  it('drove every served operation to its documented success, and lists what is not served', () => {
    const success: Record<string, number> = {};
    for (const doc of ['admin', 'analytics', 'static-export'] as const) {
      for (const [method, template] of operations(doc)) {
        const key = `${doc} ${method} ${template}`;
        if (NOT_SERVED[key]) continue;
        const statuses = [...(seen.get(key) ?? [])];
        const ok = statuses.find((s) => s >= 200 && s < 300);
        expect(ok, `${key}: no success seen (${statuses.join(', ') || 'not called'})`).toBeDefined();
        success[key] = ok!;
      }
    }
    expect(Object.keys(success)).toHaveLength(17);
    // Every undeclared status this run produced was checked against the error shape.
    const undeclared = new Set([...undocumented.values()].flatMap((s) => [...s]));
    expect([...undeclared].sort()).toEqual([400, 401, 403, 404, 409, 413, 415, 503]);
  });
});
