import { afterEach, describe, expect, it } from 'vitest';
import { LimitError } from '../../app/agent/limits.js';
import { createModelClient, ModelError } from '../../app/agent/model-client.js';
import { chunked, raw, startFakeModel, type ScriptedReply } from './helpers/fake-model.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function client(script: ScriptedReply[], apiKey?: string) {
  const model = await startFakeModel(script);
  cleanups.push(() => model.close());
  return { model, c: createModelClient({ baseUrl: model.baseUrl + '/', model: 'm', apiKey, backoffMs: 10 }) };
}
const completion = (message: unknown) => raw(200, JSON.stringify({ choices: [{ message }] }));
const signal = () => AbortSignal.timeout(5000);

describe('model client', () => {
  it('accepts the shapes local servers send: object arguments (Ollama), missing ids, no type', async () => {
    const { c, model } = await client([completion({ role: 'assistant', content: '', tool_calls: [{ function: { name: 'read_file', arguments: { path: 'a.md' } } }] })], 'k1');
    const m = await c.complete([{ role: 'user', content: 'hi' }], [], signal());
    expect(m.tool_calls).toHaveLength(1);
    expect(m.tool_calls![0]!.function).toEqual({ name: 'read_file', arguments: '{"path":"a.md"}' });
    expect(m.tool_calls![0]!.id).toMatch(/^call_/);
    expect(model.requests[0]!.headers.authorization).toBe('Bearer k1');
  });

  it('retries garbage and 5xx, then gives up with the last reason', async () => {
    const { c, model } = await client([raw(200, 'not json'), raw(503, 'overloaded'), completion({ role: 'assistant', content: 'ok' })]);
    expect(await c.complete([{ role: 'user', content: 'hi' }], [], signal())).toEqual({ role: 'assistant', content: 'ok' });
    expect(model.requests).toHaveLength(3);
    const { c: c2 } = await client([raw(200, '{"choices":[{"message":{"tool_calls":[{"function":{}}]}}]}'), raw(200, '{}'), raw(200, '[]')]);
    await expect(c2.complete([{ role: 'user', content: 'hi' }], [], signal())).rejects.toThrow(/not a chat completion .* \(gave up after 3 attempts\)/);
  });

  it('does not retry a 4xx (a request the endpoint will never accept)', async () => {
    const { c, model } = await client([raw(400, '{"error":"context length exceeded"}')]);
    const err = await c.complete([{ role: 'user', content: 'hi' }], [], signal()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect((err as Error).message).toBe('the model endpoint answered 400: {"error":"context length exceeded"}');
    expect(model.requests).toHaveLength(1);
  });

  it('reports an unreachable endpoint after the retries', async () => {
    const c = createModelClient({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm', backoffMs: 10 });
    await expect(c.complete([{ role: 'user', content: 'hi' }], [], signal())).rejects.toThrow(/could not reach the model endpoint: .*gave up after 3 attempts/);
  });

  it('refuses a reply over maxReplyBytes by its Content-Length or while streaming, without retrying; a request over maxRequestBytes is never sent', async () => {
    const big = JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'z'.repeat(100_000) } }] });
    for (const reply of [raw(200, big), chunked(200, big)]) {
      const model = await startFakeModel([reply, reply]);
      cleanups.push(() => model.close());
      const c = createModelClient({ baseUrl: model.baseUrl, model: 'm', backoffMs: 10, maxReplyBytes: 65_536 });
      const err = await c.complete([{ role: 'user', content: 'hi' }], [], signal()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LimitError);
      expect((err as LimitError).limit).toBe('maxReplyBytes');
      expect((err as Error).message).toMatch(/^agent\.maxReplyBytes reached: the model reply is (100\d{3}|more than 65536) bytes; at most 65536 are accepted$/);
      expect(model.requests).toHaveLength(1);
    }
    const { c, model } = await client([completion({ role: 'assistant', content: 'ok' })]);
    const small = createModelClient({ baseUrl: model.baseUrl, model: 'm', maxRequestBytes: 1000 });
    await expect(small.complete([{ role: 'user', content: 'x'.repeat(1000) }], [], signal())).rejects.toThrow(/^agent\.maxRequestBytes reached: the request to the model would be \d+ bytes; at most 1000 are sent$/);
    expect(model.requests).toHaveLength(0);
    expect(await c.complete([{ role: 'user', content: 'hi' }], [], signal())).toEqual({ role: 'assistant', content: 'ok' });
  });
});
