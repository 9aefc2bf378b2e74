import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  headers: http.IncomingHttpHeaders;
  body: { model: string; stream?: boolean; max_tokens?: number; tools?: unknown; messages: { role: string; content: string }[] };
}

export interface FakeReply {
  /** Streamed in these pieces, one SSE event each. */
  chunks: string[];
  /** Pause before each chunk (ms). */
  delayMs?: number;
  /** Never finish the stream (for the time limit). */
  hang?: boolean;
  status?: number;
}

/** The excerpts block of the last user message sent to the model. */
export function excerptsOf(req: RecordedRequest): string {
  const last = req.body.messages[req.body.messages.length - 1]!.content;
  return /<excerpts>([\s\S]*?)<\/excerpts>/.exec(last)?.[1] ?? '';
}

/** A default answer: cites the first excerpt by its URL, like an obedient model would. */
export function citingReply(req: RecordedRequest): FakeReply {
  const first = /<excerpt id="1" title="([^"]*)" url="([^"]+)">/.exec(excerptsOf(req));
  if (!first) return { chunks: ['The documentation does not cover this.'] };
  return { chunks: ['According ', 'to the docs, ', 'see ', `[${first[1]!.split(' — ')[0]}](${first[2]}).`] };
}

/**
 * An OpenAI-compatible chat-completions server on 127.0.0.1 that streams (SSE) and records every
 * request it is sent. What it answers is up to `reply`.
 */
export async function startFakeModel(reply: (req: RecordedRequest) => FakeReply = citingReply) {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const recorded: RecordedRequest = { headers: req.headers, body: JSON.parse(raw) as RecordedRequest['body'] };
      requests.push(recorded);
      const r = reply(recorded);
      if (r.status && r.status !== 200) {
        res.writeHead(r.status, { 'content-type': 'application/json' }).end('{"error":{"message":"boom"}}');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      void (async () => {
        for (const c of r.chunks) {
          if (r.delayMs) await new Promise((ok) => setTimeout(ok, r.delayMs));
          if (res.destroyed) return;
          res.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: c }, finish_reason: null }] })}\n\n`);
        }
        if (r.hang) return;
        res.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
        res.end('data: [DONE]\n\n');
      })();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
    },
  };
}

/** Reads an AI SDK v5 UI message stream into its chunks (the `[DONE]` marker last, as a string). */
export async function readUiStream(res: Response): Promise<{ chunks: Array<Record<string, unknown>>; done: boolean; text: string }> {
  const body = await res.text();
  const chunks: Array<Record<string, unknown>> = [];
  let done = false;
  for (const event of body.split('\n\n')) {
    const data = event.replace(/^data: /, '').trim();
    if (!data) continue;
    if (data === '[DONE]') done = true;
    else chunks.push(JSON.parse(data) as Record<string, unknown>);
  }
  const text = chunks.filter((c) => c.type === 'text-delta').map((c) => c.delta as string).join('');
  return { chunks, done, text };
}
