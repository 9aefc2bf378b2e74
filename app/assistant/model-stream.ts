import { ModelError, type ChatMessage } from '../agent/model-client.js';

export { ModelError };

export interface StreamOptions {
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  maxTokens: number;
  signal: AbortSignal;
}

/** Largest single SSE line accepted from the model endpoint: a line without end is a broken server. */
const MAX_LINE = 1024 * 1024;

/**
 * One streamed chat completion from an OpenAI-compatible endpoint (the agent's conventions:
 * `<baseUrl>/chat/completions`, bearer key from an environment variable). Yields the text deltas as
 * they arrive. No tools are offered: the assistant can only answer. Not retried: a reader is
 * waiting, and a half-streamed answer cannot be taken back.
 */
export async function* streamCompletion(messages: ChatMessage[], opts: StreamOptions): AsyncGenerator<string, { finishReason: string; usage?: { prompt_tokens?: number; completion_tokens?: number } }> {
  const url = opts.baseUrl.replace(/\/+$/, '') + '/chat/completions';
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}) },
      body: JSON.stringify({ model: opts.model, messages, stream: true, max_tokens: opts.maxTokens, temperature: 0.2, stream_options: { include_usage: true } }),
      signal: opts.signal,
    });
  } catch (err) {
    if (opts.signal.aborted) throw err;
    const cause = (err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message;
    throw new ModelError(`could not reach the model endpoint: ${cause}`);
  }
  if (!res.ok || !res.body) {
    const text = await res.text().catch(() => '');
    throw new ModelError(`the model endpoint answered ${res.status}: ${text.replace(/\s+/g, ' ').slice(0, 200) || '(empty body)'}`);
  }
  const type = res.headers.get('content-type') ?? '';
  if (!type.includes('text/event-stream')) {
    // A server that ignores `stream: true` sends one JSON completion: take its text whole.
    const json = (await res.json().catch(() => undefined)) as { choices?: { message?: { content?: string }; finish_reason?: string }[] } | undefined;
    const content = json?.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new ModelError('the model reply is neither an event stream nor a chat completion');
    if (content) yield content;
    return { finishReason: json?.choices?.[0]?.finish_reason ?? 'stop' };
  }
  const decoder = new TextDecoder();
  let buffer = '';
  let finishReason = 'stop';
  let usage: { prompt_tokens?: number; completion_tokens?: number } | undefined;
  const reader = res.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).replace(/\r$/, '');
        buffer = buffer.slice(nl + 1);
        if (!line.startsWith('data:')) continue;
        const data = line.slice(5).trim();
        if (data === '[DONE]') return { finishReason, ...(usage ? { usage } : {}) };
        let chunk: { choices?: { delta?: { content?: string | null }; finish_reason?: string | null }[]; usage?: typeof usage; error?: { message?: string } };
        try {
          chunk = JSON.parse(data) as typeof chunk;
        } catch {
          throw new ModelError(`the model stream sent something that is not JSON: ${data.slice(0, 200)}`);
        }
        if (chunk.error) throw new ModelError(`the model endpoint reported an error: ${String(chunk.error.message ?? 'unknown').slice(0, 200)}`);
        if (chunk.usage) usage = chunk.usage;
        const choice = chunk.choices?.[0];
        if (choice?.finish_reason) finishReason = choice.finish_reason;
        const delta = choice?.delta?.content;
        if (typeof delta === 'string' && delta) yield delta;
      }
      if (buffer.length > MAX_LINE) throw new ModelError('the model stream sent a line of more than 1 MiB');
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return { finishReason, ...(usage ? { usage } : {}) };
}
