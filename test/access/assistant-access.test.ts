/**
 * Retrieval over a bundle with reader access: the site assistant searches what the reader's view
 * may see; the discovery API and /mcp (assistant keys, no reader session) the public pages only.
 */
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAssistantKeyStore } from '../../app/assistant/keys-store.js';
import type { TestAppliance } from '../helpers/appliance.js';
import { TEST_PROJECT } from '../helpers/appliance.js';
import { excerptsOf, startFakeModel } from '../assistant/fake-model.js';
import { accessSite, ADMIN_SECRET, PARTNER_SECRET, serveAccessSite, tableReaderAccess, USERS } from './helpers.js';

const KEY_ENV = 'ACCESS_TEST_MODEL_KEY';

describe('assistant, discovery API and MCP over a bundle with access', () => {
  let t: TestAppliance;
  let model: Awaited<ReturnType<typeof startFakeModel>>;
  let key: string;

  beforeAll(async () => {
    process.env[KEY_ENV] = 'sk-test';
    model = await startFakeModel();
    t = await serveAccessSite(tableReaderAccess(USERS), accessSite(), { assistant: { baseUrl: model.url, model: 'local-model', apiKeyEnv: KEY_ENV, perClientPerMinute: 1000 } });
    key = createAssistantKeyStore(t.ctx.db, () => new Date()).create({ projectId: TEST_PROJECT }).key;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await model?.close();
    delete process.env[KEY_ENV];
  });

  const ask = async (cookie?: string) => {
    model.requests.length = 0;
    const req = supertest(t.site).post('/_/assistant/message').set('content-type', 'application/json');
    if (cookie) req.set('Cookie', cookie);
    const res = await req.send({ messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'How do I restart the reactor? discounts' }] }] });
    expect(res.status).toBe(200);
    return { stream: res.text, excerpts: model.requests.map(excerptsOf).join('\n') };
  };

  it("the site assistant retrieves only what the reader's view may see", async () => {
    const anon = await ask();
    expect(anon.excerpts).toContain('reactor');
    expect(anon.excerpts + anon.stream).not.toContain(ADMIN_SECRET);
    expect(anon.excerpts + anon.stream).not.toContain(PARTNER_SECRET);
    const bob = await ask('reader=bob');
    expect(bob.excerpts).toContain(PARTNER_SECRET);
    expect(bob.excerpts + bob.stream).not.toContain(ADMIN_SECRET);
    const alice = await ask('reader=alice');
    expect(alice.excerpts).toContain(ADMIN_SECRET);
  });

  it('the discovery API answers with public pages only', async () => {
    const search = await supertest(t.admin).post('/discovery/v1/search/docs').set('authorization', `Bearer ${key}`).send({ query: 'reactor', pageSize: 50 }).expect(200);
    const paths = (search.body as { path: string }[]).map((h) => h.path).sort();
    expect(paths).toEqual(['guides/intro', 'index']);
    expect(JSON.stringify(search.body)).not.toContain(ADMIN_SECRET);
    await supertest(t.admin).post('/discovery/v1/page/docs').set('authorization', `Bearer ${key}`).send({ path: 'admin/runbook' }).expect(404);
    await supertest(t.admin).post('/discovery/v1/page/docs').set('authorization', `Bearer ${key}`).send({ path: 'partner' }).expect(404);
    await supertest(t.admin).post('/discovery/v1/page/docs').set('authorization', `Bearer ${key}`).send({ path: 'guides/intro' }).expect(200);
  });

  it('/mcp searches and reads public pages only, whatever cookie comes with it', async () => {
    const call = (name: string, args: Record<string, unknown>) =>
      supertest(t.site)
        .post('/mcp')
        .set('accept', 'application/json, text/event-stream')
        .set('Cookie', 'reader=alice')
        .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } })
        .expect(200);
    const search = await call('search', { query: 'reactor', pageSize: 50 });
    expect(search.text).toContain('Install the reactor software.');
    expect(search.text).not.toContain(ADMIN_SECRET);
    expect(search.text).not.toContain(PARTNER_SECRET);
    const page = await call('get_page', { path: 'admin/runbook' });
    expect(page.text).toContain('No page at');
    expect(page.text).not.toContain(ADMIN_SECRET);
  });
});
