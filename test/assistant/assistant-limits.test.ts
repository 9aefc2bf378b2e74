/** The assistant's limits and its off state (issue 21): each is enforced and says what happened. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assistantRig, type AssistantRig } from './helpers.js';
import { citingReply, readUiStream, startFakeModel, type FakeReply, type RecordedRequest } from './fake-model.js';

const question = { messages: [{ role: 'user', parts: [{ type: 'text', text: 'How quickly are refunds processed?' }] }] };
const post = (origin: string, body: unknown = question) => fetch(`${origin}/_/assistant/message`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('assistant limits', () => {
  let replyWith: (req: RecordedRequest) => FakeReply = citingReply;
  let model: Awaited<ReturnType<typeof startFakeModel>>;
  let rig: AssistantRig;
  beforeAll(async () => {
    model = await startFakeModel((r) => replyWith(r));
    rig = await assistantRig({ assistant: { baseUrl: model.url, model: 'm', perClientPerMinute: 6, timeoutSeconds: 1, maxConcurrent: 1, maxContextChars: 1000 } });
  }, 120_000);
  afterAll(async () => {
    await rig?.close();
    await model?.close();
  });
  afterEach(() => {
    replyWith = citingReply;
    model.requests.length = 0;
  });

  it('stops an answer that takes longer than timeoutSeconds, keeping what streamed, with an error part', async () => {
    replyWith = () => ({ chunks: ['Refunds take '], hang: true });
    const started = Date.now();
    const { chunks, text, done } = await readUiStream(await post(rig.siteOrigin));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(text).toBe('Refunds take ');
    expect(chunks.find((c) => c.type === 'error')?.errorText).toBe('The answer took longer than 1 s and was stopped.');
    expect(done).toBe(true);
  });

  it('sends at most maxContextChars of passages to the model', async () => {
    await readUiStream(await post(rig.siteOrigin));
    const last = model.requests[0]!.body.messages.at(-1)!.content;
    const excerpts = /<excerpts>([\s\S]*?)<\/excerpts>/.exec(last)![1]!;
    expect(excerpts.length).toBeLessThan(1300);
    expect(excerpts).toContain('within 5 business days');
  });

  it('answers one question at a time with maxConcurrent 1: the second gets 503 with Retry-After', async () => {
    replyWith = () => ({ chunks: ['a', 'b', 'c'], delayMs: 300 });
    const first = post(rig.siteOrigin);
    await new Promise((r) => setTimeout(r, 100));
    const second = await post(rig.siteOrigin);
    expect(second.status).toBe(503);
    expect(second.headers.get('retry-after')).toBe('5');
    await readUiStream(await first);
  });

  it('limits questions per client per minute with 429 and Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await post(rig.siteOrigin, { messages: 'not an array' });
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // The earlier tests used four of the six: two more are read (and refused as bad), then 429
    // before the body is even parsed.
    expect(statuses).toEqual([400, 400, 429, 429]);
  });
});

describe('assistant off (no model configured)', () => {
  let rig: AssistantRig;
  beforeAll(async () => {
    rig = await assistantRig();
  }, 120_000);
  afterAll(() => rig?.close());

  it('answers a clear 503 error and tells the UI it is disabled', async () => {
    const res = await post(rig.siteOrigin);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: string }).error).toMatch(/not configured.*assistant\.baseUrl and assistant\.model/);
    // The MCP server needs no model: the page menu may still offer it.
    expect(await (await fetch(`${rig.siteOrigin}/_/assistant`)).json()).toEqual({ enabled: false, mcp: '/mcp' });
  });

  it('stores nothing that identifies the reader', async () => {
    const cols = rig.t.ctx.db.prepare("SELECT name FROM pragma_table_info('assistant_turns')").all() as { name: string }[];
    expect(cols.map((c) => c.name).filter((n) => /ip|addr|cookie|fp|fingerprint|agent/i.test(n))).toEqual([]);
  });
});

describe('questions in flight per client address (issue 37, sibling of the playground slots)', () => {
  let model: Awaited<ReturnType<typeof startFakeModel>>;
  let rig: AssistantRig;
  beforeAll(async () => {
    model = await startFakeModel(() => ({ chunks: ['Refunds ', 'take ', 'five ', 'days.'], delayMs: 250 }));
    rig = await assistantRig({ admin: { trustProxy: true }, assistant: { baseUrl: model.url, model: 'm', perClientPerMinute: 100, maxConcurrent: 4, maxPerClient: 1 } });
  }, 120_000);
  afterAll(async () => {
    await rig?.close();
    await model?.close();
  });

  it('one address holds at most maxPerClient answers; others are not held back; the slot is given back when the answer ends', async () => {
    const from = (ip: string) =>
      fetch(`${rig.siteOrigin}/_/assistant/message`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: JSON.stringify(question) });
    const first = from('10.0.0.1');
    while (model.requests.length < 1) await new Promise((r) => setTimeout(r, 10));
    const second = await from('10.0.0.1');
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('5');
    expect(await second.json()).toEqual({ error: 'This address already has 1 question(s) being answered; wait for an answer, then ask again' });
    const other = await from('10.0.0.2');
    expect(other.status).toBe(200);
    expect((await readUiStream(other)).text).toBe('Refunds take five days.');
    expect((await readUiStream(await first)).done).toBe(true);
    const again = await from('10.0.0.1');
    expect(again.status).toBe(200);
    await readUiStream(again);
  });
});
