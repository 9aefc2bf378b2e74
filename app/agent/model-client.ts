import { z } from 'zod';
import { LimitError } from './limits.js';

/** OpenAI chat-completions message shapes (the subset the runner sends and accepts). */
export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ToolSpec {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** A model failure that is not worth retrying, or retries used up: ends the run with this reason. */
export class ModelError extends Error {
  override name = 'ModelError';
}

const responseSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          role: z.literal('assistant').optional(),
          content: z.string().nullish(),
          tool_calls: z
            .array(
              z.object({
                // Some servers (older llama.cpp builds) leave the id out; one is made up below.
                id: z.string().min(1).optional(),
                type: z.literal('function').optional(),
                function: z.object({ name: z.string().min(1), arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).optional() }),
              }),
            )
            .nullish(),
        }),
      }),
    )
    .min(1),
});

export interface ModelClientOptions {
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  /** Attempts per completion for retryable failures (garbage, 429, 5xx, connection errors). */
  attempts?: number;
  /** Pause before retry n is n × this. */
  backoffMs?: number;
  /** Largest request body sent (agent.maxRequestBytes); the caller compacts below it first. */
  maxRequestBytes?: number;
  /** Largest reply body read (agent.maxReplyBytes); past it the reading stops and the turn fails. */
  maxReplyBytes?: number;
}

class Retryable extends Error {}

/**
 * One completion from an OpenAI-compatible endpoint (vLLM, Ollama, llama.cpp server...). A reply
 * that is not the expected JSON, a 429/5xx or a dropped connection is retried a bounded number of
 * times; a 4xx or the deadline ends it at once.
 */
export function createModelClient(opts: ModelClientOptions) {
  const url = opts.baseUrl.replace(/\/+$/, '') + '/chat/completions';
  const attempts = opts.attempts ?? 3;
  const backoffMs = opts.backoffMs ?? 500;
  const maxRequestBytes = opts.maxRequestBytes ?? Infinity;
  const maxReplyBytes = opts.maxReplyBytes ?? Infinity;

  async function once(messages: ChatMessage[], tools: ToolSpec[], signal: AbortSignal): Promise<Extract<ChatMessage, { role: 'assistant' }>> {
    const body = JSON.stringify({ model: opts.model, messages, tools, tool_choice: 'auto' });
    const bodyBytes = Buffer.byteLength(body, 'utf8');
    if (bodyBytes > maxRequestBytes) throw new LimitError('maxRequestBytes', `the request to the model would be ${bodyBytes} bytes; at most ${maxRequestBytes} are sent`);
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}) },
        body,
        signal,
      });
    } catch (err) {
      if (signal.aborted) throw err;
      throw new Retryable(`could not reach the model endpoint: ${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message}`);
    }
    const text = await readCapped(res, maxReplyBytes, signal);
    if (res.status === 429 || res.status >= 500) throw new Retryable(`the model endpoint answered ${res.status}: ${excerpt(text)}`);
    if (!res.ok) throw new ModelError(`the model endpoint answered ${res.status}: ${excerpt(text)}`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new Retryable(`the model endpoint answered with something that is not JSON: ${excerpt(text)}`);
    }
    const parsed = responseSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Retryable(`the model reply is not a chat completion (${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'invalid'}): ${excerpt(text)}`);
    }
    const m = parsed.data.choices[0]!.message;
    const calls = (m.tool_calls ?? []).map<ToolCall>((c, i) => ({
      id: c.id ?? `call_${Date.now().toString(36)}_${i}`,
      type: 'function',
      function: { name: c.function.name, arguments: typeof c.function.arguments === 'string' ? c.function.arguments : JSON.stringify(c.function.arguments ?? {}) },
    }));
    return calls.length ? { role: 'assistant', content: m.content ?? null, tool_calls: calls } : { role: 'assistant', content: m.content ?? '' };
  }

  return {
    async complete(messages: ChatMessage[], tools: ToolSpec[], signal: AbortSignal) {
      let last = '';
      for (let attempt = 1; attempt <= attempts; attempt++) {
        try {
          return await once(messages, tools, signal);
        } catch (err) {
          if (!(err instanceof Retryable)) throw err;
          last = err.message;
          if (attempt < attempts) await sleep(backoffMs * attempt, signal);
        }
      }
      throw new ModelError(`${last} (gave up after ${attempts} attempts)`);
    },
  };
}

export type ModelClient = ReturnType<typeof createModelClient>;

/**
 * The reply body, read only up to `max` bytes: a model (or a proxy) streaming an endless or
 * huge answer fails the turn instead of filling the runner's memory. Not retried: the same
 * request would most likely get the same answer.
 */
async function readCapped(res: Response, max: number, signal: AbortSignal): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  const tooBig = (n: number | string) => new LimitError('maxReplyBytes', `the model reply is ${n} bytes; at most ${max} are accepted`);
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel().catch(() => undefined);
    throw tooBig(declared);
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > max) {
        await reader.cancel().catch(() => undefined);
        throw tooBig(`more than ${max}`);
      }
      chunks.push(value);
    }
  } catch (err) {
    if (err instanceof LimitError || signal.aborted) throw err;
    throw new Retryable(`the model reply broke off: ${(err as Error).message}`);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function excerpt(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > 200 ? `${t.slice(0, 200)}…` : t || '(empty body)';
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
