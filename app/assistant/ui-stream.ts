import type { Response } from 'express';
import type { AnswerSink } from './answer.js';

/**
 * The AI SDK v5 UI message stream (what `useChat` reads; discovery v2 and the site's own panel):
 * server-sent events, one JSON chunk each, ending with `[DONE]`. The thread id travels as message
 * metadata on `start` and `finish`, and in the `X-Thread-Id` header.
 */
export function uiMessageStreamSink(res: Response, threadId: string): AnswerSink {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Accel-Buffering', 'no');
  res.setHeader('x-vercel-ai-ui-message-stream', 'v1');
  res.setHeader('X-Thread-Id', threadId);
  res.flushHeaders();
  const send = (chunk: unknown) => res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  let textOpen = false;
  const closeText = () => {
    if (textOpen) send({ type: 'text-end', id: 'text-1' });
    textOpen = false;
  };
  return {
    start({ messageId, threadId }) {
      send({ type: 'start', messageId, messageMetadata: { threadId } });
      send({ type: 'start-step' });
    },
    text(delta) {
      if (!textOpen) send({ type: 'text-start', id: 'text-1' });
      textOpen = true;
      send({ type: 'text-delta', id: 'text-1', delta });
    },
    sources(list) {
      closeText();
      for (const s of list) send({ type: 'source-url', sourceId: s.id, url: s.url, title: s.title });
    },
    error(message) {
      closeText();
      send({ type: 'error', errorText: message });
    },
    finish({ threadId }) {
      closeText();
      send({ type: 'finish-step' });
      send({ type: 'finish', messageMetadata: { threadId } });
      res.end('data: [DONE]\n\n');
    },
  };
}

/**
 * The AI SDK v4 data stream (discovery v1): `code:JSON` lines. Text `0:`, sources `h:`, errors
 * `3:`, step end `e:`, message end `d:` (which carries the thread id, as the hosted document says).
 */
export function dataStreamSink(res: Response, threadId: string): AnswerSink {
  res.status(200);
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Accel-Buffering', 'no');
  res.setHeader('x-vercel-ai-data-stream', 'v1');
  res.setHeader('X-Thread-Id', threadId);
  res.flushHeaders();
  const line = (code: string, value: unknown) => res.write(`${code}:${JSON.stringify(value)}\n`);
  const usage = { promptTokens: 0, completionTokens: 0 };
  return {
    start({ messageId }) {
      line('f', { messageId });
    },
    text(delta) {
      line('0', delta);
    },
    sources(list) {
      for (const s of list) line('h', { sourceType: 'url', id: s.id, url: s.url, title: s.title });
    },
    error(message) {
      line('3', message);
    },
    finish({ threadId, finishReason }) {
      line('e', { finishReason, usage, isContinued: false });
      line('d', { finishReason, usage, threadId });
      res.end();
    },
  };
}
