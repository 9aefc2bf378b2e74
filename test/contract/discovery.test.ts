/**
 * The discovery (assistant) API against its published document (test/fixtures/hosted-openapi/
 * discovery-openapi.json, server `…/discovery`), with assistant keys (issue 21).
 */
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssistantKeyStore } from '../../app/assistant/keys-store.js';
import { OTHER_PROJECT, TEST_PROJECT } from '../helpers/appliance.js';
import { cliAdminApp, cliConfig, CLI_PROJECT, runCli } from '../helpers/cli.js';
import { assistantRig, type AssistantRig } from '../assistant/helpers.js';
import { readUiStream, startFakeModel } from '../assistant/fake-model.js';
import { checkAnswer, serverPath } from './hosted-spec.js';

const BASE = serverPath('discovery');

describe('discovery API', () => {
  let model: Awaited<ReturnType<typeof startFakeModel>>;
  let rig: AssistantRig;
  let key: string;
  let otherKey: string;
  beforeAll(async () => {
    model = await startFakeModel();
    rig = await assistantRig({ assistant: { baseUrl: model.url, model: 'm' } });
    const keys = createAssistantKeyStore(rig.t.ctx.db, () => new Date());
    key = keys.create({ projectId: TEST_PROJECT }).key;
    otherKey = keys.create({ projectId: OTHER_PROJECT }).key;
  }, 120_000);
  afterAll(async () => {
    await rig?.close();
    await model?.close();
  });

  /** POST an operation, check the answer against the document, return it. */
  const call = async (template: string, domain: string, body: unknown, bearer: string | undefined = key) => {
    const res = await fetch(`${rig.adminOrigin}${BASE}${template.replace('{domain}', domain)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    const parsed = (res.headers.get('content-type') ?? '').startsWith('application/json') ? (JSON.parse(text) as unknown) : text;
    return { status: res.status, headers: res.headers, body: parsed };
  };
  const checked = async (template: string, domain: string, body: unknown, bearer?: string) => {
    const a = await call(template, domain, body, bearer);
    checkAnswer('discovery', 'POST', template, a);
    return a;
  };

  it('search: documented results for the project domain and its first label, filtered by score', async () => {
    for (const domain of ['docs.test.internal', 'docs']) {
      const a = await checked('/v1/search/{domain}', domain, { query: 'refunds processed', pageSize: 3 });
      expect(a.status).toBe(200);
      const results = a.body as { content: string; path: string; metadata: Record<string, unknown> }[];
      expect(results.length).toBeGreaterThan(0);
      expect(results.length).toBeLessThanOrEqual(3);
      expect(results[0]).toMatchObject({ path: 'billing', metadata: { heading: 'Refunds', url: 'https://docs.test.internal/billing/#refunds', score: 1, language: 'en' } });
      expect(results[0]!.content).toContain('within 5 business days');
    }
    const strict = await checked('/v1/search/{domain}', 'docs', { query: 'refunds processed', scoreThreshold: 1 });
    expect((strict.body as unknown[]).length).toBe(1);
    const fr = await checked('/v1/search/{domain}', 'docs', { query: 'mémoire', filter: { language: 'fr' } });
    expect((fr.body as { path: string }[])[0]!.path).toBe('fr/install');
  });

  it('page: the Markdown of a path search returned; 404 {message} for an unknown one', async () => {
    const a = await checked('/v1/page/{domain}', 'docs', { path: 'troubleshooting' });
    expect(a.body).toMatchObject({ path: 'troubleshooting' });
    expect((a.body as { content: string }).content).toContain('E4021 means the license file expired');
    const missing = await checked('/v1/page/{domain}', 'docs', { path: 'nope/../../manifest' });
    expect(missing.status).toBe(404);
  });

  it('keys: missing, admin-format, and another project\'s key are refused; a wrong domain is 404', async () => {
    expect((await checked('/v1/search/{domain}', 'docs', { query: 'x' }, '')).status).toBe(401);
    expect((await checked('/v1/search/{domain}', 'docs', { query: 'x' }, rig.t.createKey())).status).toBe(401);
    expect((await checked('/v1/search/{domain}', 'docs', { query: 'x' }, otherKey)).status).toBe(404);
    expect((await checked('/v1/search/{domain}', 'docs.other.internal', { query: 'x' }, key)).status).toBe(404);
    // An assistant key opens nothing on the admin API.
    expect((await fetch(`${rig.adminOrigin}/v1/analytics/${TEST_PROJECT}/searches`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
  });

  it('bad bodies are 400 in the error shape', async () => {
    expect((await checked('/v1/search/{domain}', 'docs', {})).status).toBe(400);
    expect((await checked('/v1/search/{domain}', 'docs', { query: 'x', pageSize: 51 })).status).toBe(400);
    expect((await checked('/v1/page/{domain}', 'docs', {})).status).toBe(400);
    expect((await checked('/v2/assistant/{domain}/message', 'docs', { messages: [] })).status).toBe(400);
  });

  it('assistant v2: an AI SDK v5 UI message stream with absolute source URLs and the thread id', async () => {
    const a = await call('/v2/assistant/{domain}/message', 'docs', { fp: 'anonymous', messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'How quickly are refunds processed?' }] }] });
    expect(a.status).toBe(200);
    expect(a.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    const { chunks, done, text } = await readUiStream(new Response(a.body as string));
    expect(done).toBe(true);
    expect(text).toContain('[Billing](/billing/#refunds)');
    expect(chunks.find((c) => c.type === 'source-url')).toMatchObject({ url: 'https://docs.test.internal/billing/', title: 'Billing' });
    expect((chunks.at(-1)!.messageMetadata as { threadId: string }).threadId).toBe(a.headers.get('x-thread-id'));
  });

  it('assistant v1: an AI SDK v4 data stream whose finish part carries the thread id', async () => {
    const a = await call('/v1/assistant/{domain}/message', 'docs', { fp: 'user-42', messages: [{ id: 'm1', role: 'user', content: 'What does error E4021 mean?' }] });
    expect(a.status).toBe(200);
    expect(a.headers.get('x-vercel-ai-data-stream')).toBe('v1');
    const lines = (a.body as string).trim().split('\n').map((l) => [l.slice(0, l.indexOf(':')), JSON.parse(l.slice(l.indexOf(':') + 1))] as const);
    expect(lines[0]![0]).toBe('f');
    expect(lines.filter(([c]) => c === '0').map(([, v]) => v as string).join('')).toContain('/troubleshooting/#error-e4021');
    expect(lines.find(([c]) => c === 'h')![1]).toMatchObject({ sourceType: 'url', url: 'https://docs.test.internal/troubleshooting/' });
    const finish = lines.at(-1)!;
    expect(finish[0]).toBe('d');
    expect(finish[1]).toMatchObject({ finishReason: 'stop', threadId: a.headers.get('x-thread-id') });
    // `fp` is not stored anywhere.
    expect(JSON.stringify(rig.t.ctx.db.prepare('SELECT * FROM assistant_turns').all())).not.toContain('user-42');
  });
});

describe('discovery API with the assistant off', () => {
  let rig: AssistantRig;
  let key: string;
  beforeAll(async () => {
    rig = await assistantRig();
    key = createAssistantKeyStore(rig.t.ctx.db, () => new Date()).create({ projectId: TEST_PROJECT }).key;
  }, 120_000);
  afterAll(() => rig?.close());

  it('answers messages with a clear 503 error; search and page still work', async () => {
    const post = (p: string, body: unknown) => supertest(rig.t.admin).post(`${BASE}${p}`).set('authorization', `Bearer ${key}`).send(body as object);
    const off = await post('/v2/assistant/docs/message', { fp: 'anonymous', messages: [{ role: 'user', content: 'hi' }] });
    checkAnswer('discovery', 'POST', '/v2/assistant/{domain}/message', { status: off.status, headers: new Headers(off.headers as Record<string, string>), body: off.body });
    expect(off.status).toBe(503);
    expect(off.body.message).toMatch(/not configured/);
    expect((await post('/v1/search/docs', { query: 'refunds' })).status).toBe(200);
  });

  it('answers as the served /openapi.json describes', async () => {
    // t.api checks every response against the appliance's own document.
    await rig.t.api(key).post('/discovery/v1/search/docs').send({ query: 'refunds' }).expect(200);
    await rig.t.api(key).post('/discovery/v1/page/docs').send({ path: 'billing' }).expect(200);
    await rig.t.api(key).post('/discovery/v1/page/docs').send({ path: 'missing' }).expect(404);
    await rig.t.api('mint_dsc_nope').post('/discovery/v1/search/docs').send({ query: 'x' }).expect(401);
    await rig.t.api(key).post('/discovery/v2/assistant/docs/message').send({ fp: 'anonymous', messages: [{ role: 'user', content: 'hi' }] }).expect(503);
  });
});

describe('keys create --type assistant', () => {
  it('creates a mint_dsc_ key for one project that the discovery API accepts', async () => {
    const { config } = cliConfig('assistant-key-');
    const created = await runCli(['keys', 'create', '--type', 'assistant', '--project', CLI_PROJECT, '--json', '--config', config]);
    expect(created.code).toBe(0);
    const out = JSON.parse(created.out) as { key: string; type: string; projectId: string };
    expect(out).toMatchObject({ type: 'assistant', projectId: CLI_PROJECT });
    expect(out.key).toMatch(/^mint_dsc_[0-9A-Za-z]{40}$/);
    const { app, close } = cliAdminApp(config);
    try {
      // Authenticated, right domain: nothing is served by this state, so 404 "no search index".
      const res = await supertest(app).post(`${BASE}/v1/search/docs`).set('authorization', `Bearer ${out.key}`).send({ query: 'x' });
      expect(res.status).toBe(404);
      expect(res.body.message).toMatch(/No search index available/);
    } finally {
      close();
    }
    expect((await runCli(['keys', 'create', '--type', 'assistant', '--config', config])).code).toBe(1);
    expect((await runCli(['keys', 'create', '--type', 'assistant', '--project', 'ffffffffffffffffffffffff', '--config', config])).code).toBe(1);
  });
});
