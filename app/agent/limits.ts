import type { Config } from '../../config/schema.js';
import type { ChatMessage } from './model-client.js';

/**
 * The bounds of one job (agent.* in the config), handed to the runner thread. Each one names
 * its config key in whatever the user sees when it is reached.
 */
export interface RunLimits {
  maxSteps: number;
  timeoutSeconds: number;
  maxToolCallsPerReply: number;
  maxToolOutputBytes: number;
  maxRequestBytes: number;
  maxReplyBytes: number;
  maxTranscriptBytes: number;
  maxFilesChanged: number;
  maxChangedBytes: number;
}

/** The run limits of the agent config section (a SIGHUP's new values apply to the next runs). */
export function runLimitsOf(agent: Readonly<Config['agent']>): RunLimits {
  return {
    maxSteps: agent.maxSteps,
    timeoutSeconds: agent.timeoutSeconds,
    maxToolCallsPerReply: agent.maxToolCallsPerReply,
    maxToolOutputBytes: agent.maxToolOutputBytes,
    maxRequestBytes: agent.maxRequestBytes,
    maxReplyBytes: agent.maxReplyBytes,
    maxTranscriptBytes: agent.maxTranscriptBytes,
    maxFilesChanged: agent.maxFilesChanged,
    maxChangedBytes: agent.maxChangedBytes,
  };
}

export type LimitKey = Exclude<keyof RunLimits, 'maxSteps' | 'timeoutSeconds'>;

/** A limit that ends the turn: the reason starts with the config key, e.g. `agent.maxReplyBytes reached: …`. */
export class LimitError extends Error {
  override name = 'LimitError';
  constructor(
    readonly limit: LimitKey,
    detail: string,
  ) {
    super(`agent.${limit} reached: ${detail}`);
  }
}

/** Bytes a message takes in the database and in a request (both store it as JSON). */
export const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** Cut a UTF-8 string to at most `max` bytes without splitting a character. */
export function cutUtf8(s: string, max: number): string {
  if (Buffer.byteLength(s, 'utf8') <= max) return s;
  const buf = Buffer.from(s, 'utf8').subarray(0, max);
  // A cut inside a multi-byte character decodes to U+FFFD at the end: drop it.
  return buf.toString('utf8').replace(/\uFFFD$/, '');
}

/**
 * One tool result as kept: at most `max` bytes of UTF-8 text, the marker included. (Stored as
 * JSON, escaping can make it somewhat larger; the job's total is bounded in JSON bytes by
 * agent.maxTranscriptBytes.)
 */
export function boundToolOutput(content: string, max: number): { content: string; cut: boolean } {
  const total = Buffer.byteLength(content, 'utf8');
  if (total <= max) return { content, cut: false };
  const marker = `\n… [cut: the output was ${total} bytes; a tool result keeps at most ${max} (agent.maxToolOutputBytes). Narrow the call (a subfolder, a more specific query).]`;
  return { content: cutUtf8(content, Math.max(0, max - Buffer.byteLength(marker, 'utf8'))) + marker, cut: true };
}

/** What replaces a dropped part of the request, so the model knows it can ask again. */
const DROPPED_OUTPUT = '[this tool output was dropped to keep the request under agent.maxRequestBytes; call the tool again if you still need it]';
const droppedArguments = (name: string, bytes: number, path: unknown) =>
  JSON.stringify({ ...(typeof path === 'string' ? { path: path.slice(0, 300) } : {}), note: `the ${bytes}-byte arguments of this ${name} call were dropped to keep the request under agent.maxRequestBytes` });

/**
 * Make the messages fit a request of `maxBytes` (`overhead` is the rest of the request body:
 * model name, tool specs). Oldest first, tool outputs are replaced by a short note, then the
 * arguments of old tool calls (the full contents of write_file); prompts, summaries and the
 * system prompt are never touched. Edits `messages` in place (the run keeps the compacted
 * form) and answers how many parts were dropped; throws a LimitError if it still does not fit.
 */
export function compactForRequest(messages: ChatMessage[], maxBytes: number, overhead: number): number {
  let total = jsonBytes(messages) + overhead;
  if (total <= maxBytes) return 0;
  let dropped = 0;
  // Pass 1: tool outputs; pass 2: tool-call arguments. Each pass oldest first.
  for (const pass of ['output', 'arguments'] as const) {
    for (let i = 0; i < messages.length && total > maxBytes; i++) {
      const m = messages[i]!;
      if (pass === 'output' && m.role === 'tool' && m.content !== DROPPED_OUTPUT) {
        const before = jsonBytes(m.content);
        const after = jsonBytes(DROPPED_OUTPUT);
        if (before <= after) continue;
        messages[i] = { ...m, content: DROPPED_OUTPUT };
        total -= before - after;
        dropped++;
      } else if (pass === 'arguments' && m.role === 'assistant' && m.tool_calls?.length) {
        const calls = m.tool_calls.map((c) => {
          const args = c.function.arguments;
          if (args.length < 512) return c;
          let path: unknown;
          try {
            path = (JSON.parse(args) as Record<string, unknown>).path;
          } catch {
            path = undefined;
          }
          dropped++;
          return { ...c, function: { ...c.function, arguments: droppedArguments(c.function.name, Buffer.byteLength(args, 'utf8'), path) } };
        });
        const before = jsonBytes(m);
        messages[i] = { ...m, tool_calls: calls };
        total -= before - jsonBytes(messages[i]);
      }
    }
  }
  if (total > maxBytes) {
    throw new LimitError('maxRequestBytes', `the conversation needs ${total} bytes even with every old tool output and tool-call argument dropped; a request to the model is at most ${maxBytes} bytes. Start a new job.`);
  }
  return dropped;
}
