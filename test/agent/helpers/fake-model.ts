import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer: a chat completion, a raw HTTP reply, or no reply at all (a hung model). */
export type ScriptedReply =
  | { kind: 'completion'; message: Record<string, unknown> }
  | { kind: 'raw'; status: number; body: string; chunked?: boolean }
  | { kind: 'hang' }
  | { kind: 'delayed'; ms: number; reply: ScriptedReply }
  | { kind: 'held'; reply: ScriptedReply };

export const toolCall = (name: string, args: unknown, id = `call_${Math.random().toString(16).slice(2, 10)}`): ScriptedReply => ({
  kind: 'completion',
  message: { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) } }] },
});
/** One reply with many tool calls (parallel tool calling). */
export const toolCalls = (calls: Array<[name: string, args: unknown]>): ScriptedReply => ({
  kind: 'completion',
  message: {
    role: 'assistant',
    content: null,
    tool_calls: calls.map(([name, args], i) => ({ id: `call_${i}_${Math.random().toString(16).slice(2, 8)}`, type: 'function', function: { name, arguments: JSON.stringify(args) } })),
  },
});
export const finish = (summary: string) => toolCall('finish', { summary });
export const say = (content: string): ScriptedReply => ({ kind: 'completion', message: { role: 'assistant', content } });
export const raw = (status: number, body: string): ScriptedReply => ({ kind: 'raw', status, body });
/** A body streamed without Content-Length (chunked), as a proxy or a streaming server sends it. */
export const chunked = (status: number, body: string): ScriptedReply => ({ kind: 'raw', status, body, chunked: true });
export const hang = (): ScriptedReply => ({ kind: 'hang' });
/** A slow model: the reply comes after `ms`. */
export const delayed = (ms: number, reply: ScriptedReply): ScriptedReply => ({ kind: 'delayed', ms, reply });
/** A model that answers only when the test says so (`release()`): the run is surely in flight until then. */
export const held = (reply: ScriptedReply): ScriptedReply => ({ kind: 'held', reply });

/**
 * An OpenAI-compatible chat-completions endpoint on loopback that answers from a script, in
 * order, and records every request (to check what the runner sent: tools, conversation, key).
 */
export async function startFakeModel(script: ScriptedReply[] = []) {
  const queue = [...script];
  const requests: Array<{ headers: http.IncomingHttpHeaders; bytes: number; body: { model: string; messages: Array<Record<string, unknown>>; tools: Array<{ function: { name: string } }>; tool_choice: string } }> = [];
  const hung = new Set<http.ServerResponse>();
  const holding: Array<{ res: http.ServerResponse; reply: ScriptedReply }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end('not found');
        return;
      }
      const data = Buffer.concat(chunks);
      requests.push({ headers: req.headers, bytes: data.length, body: JSON.parse(data.toString('utf8')) });
      const next: ScriptedReply = queue.shift() ?? { kind: 'raw', status: 500, body: 'script exhausted' };
      if (next.kind === 'held') {
        hung.add(res);
        holding.push({ res, reply: next.reply });
        return;
      }
      if (next.kind === 'delayed') {
        const { ms, reply } = next;
        hung.add(res);
        setTimeout(() => {
          hung.delete(res);
          if (!res.destroyed) answer(res, reply);
        }, ms);
        return;
      }
      answer(res, next);
    });
  });
  const answer = (res: http.ServerResponse, next: ScriptedReply) => {
    if (next.kind === 'hang' || next.kind === 'delayed' || next.kind === 'held') {
      hung.add(res);
      return;
    }
    if (next.kind === 'raw') {
      res.writeHead(next.status, { 'content-type': 'application/json' });
      if (next.chunked) {
        // Several writes before end(): Node sends it chunked, without a Content-Length.
        for (let i = 0; i < next.body.length; i += 64 * 1024) res.write(next.body.slice(i, i + 64 * 1024));
        res.end();
      } else res.end(next.body);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({ id: 'cmpl', object: 'chat.completion', model: 'test-model', choices: [{ index: 0, message: next.message, finish_reason: 'stop' }] }),
    );
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    /** Append replies (a follow-up's script). */
    push: (...replies: ScriptedReply[]) => queue.push(...replies),
    remaining: () => queue.length,
    /** Answer every request held so far (`held` replies), in arrival order. */
    release() {
      for (const { res, reply } of holding.splice(0)) {
        hung.delete(res);
        if (!res.destroyed) answer(res, reply);
      }
    },
    async close() {
      for (const res of hung) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakeModel = Awaited<ReturnType<typeof startFakeModel>>;
