import type { ChatMessage, ModelClient, ToolCall, ToolSpec } from './model-client.js';
import { ModelError } from './model-client.js';
import { boundToolOutput, compactForRequest, jsonBytes, LimitError, type LimitKey, type RunLimits } from './limits.js';
import { neutraliseTemplateTokens } from './template-tokens.js';
import { ToolError, WORKSPACE_TOOL_SPECS, type WorkspaceTools } from './workspace-tools.js';

/** Why a run ended without finishing its instruction; becomes the job's failure reason. */
export class AgentRunError extends Error {
  override name = 'AgentRunError';
}

export const FINISH_TOOL: ToolSpec = {
  type: 'function',
  function: {
    name: 'finish',
    description: 'Call when the instruction is done (or nothing needs to change), with a short summary of what changed and why.',
    parameters: { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'], additionalProperties: false },
  },
};

/** Malformed tool calls in a row (unparseable arguments, unknown tools) before the run gives up. */
export const MAX_INVALID_CALLS_IN_A_ROW = 3;

export interface AgentLoopOptions {
  model: ModelClient;
  tools: WorkspaceTools;
  systemPrompt: string;
  /** Earlier turns and this turn's prompt(s). */
  conversation: ChatMessage[];
  limits: Pick<RunLimits, 'maxSteps' | 'maxToolCallsPerReply' | 'maxToolOutputBytes' | 'maxRequestBytes' | 'maxTranscriptBytes'>;
  /** The model name as sent in each request (counted in its size). */
  modelName: string;
  /** Aborts on the wall-clock limit (or shutdown). */
  signal: AbortSignal;
  /** Called for every message the run adds (persisted by the appliance). */
  onMessage(m: ChatMessage): void;
  onToolCall?(name: string, args: Record<string, unknown>, error: string | null): void;
  /** A limit was reached and the run went on with less (logged; listed in the pull request). */
  onLimit?(limit: LimitKey, detail: string): void;
}

/**
 * The tool-calling loop: ask the model, run the file tools it calls, feed the results back,
 * until it calls `finish` or answers without a tool call. Bounded by steps (model round trips),
 * the caller's signal and the size limits of RunLimits; a size limit that ends the run is
 * thrown as a LimitError.
 */
export async function runAgentLoop(o: AgentLoopOptions): Promise<{ summary: string; steps: number }> {
  const { limits } = o;
  // The caller's instructions cannot speak the chat template (app/agent/template-tokens.ts); they
  // are stored as written. Tool outputs are not rewritten: they are the files the model edits, and
  // a lookalike it read would be written back into the repository (docs/agent.md, "Prompt").
  const asSent = (m: ChatMessage): ChatMessage => (m.role === 'user' ? { role: 'user', content: neutraliseTemplateTokens(m.content) } : m);
  const messages: ChatMessage[] = [{ role: 'system', content: o.systemPrompt }, ...o.conversation.map(asSent)];
  const specs = [...WORKSPACE_TOOL_SPECS, FINISH_TOOL];
  // What the job has stored so far (the conversation as the database holds it); every message
  // this run adds counts against agent.maxTranscriptBytes before it is handed on for storage.
  let stored = o.conversation.reduce((n, m) => n + jsonBytes(m), 0);
  const add = (m: ChatMessage) => {
    const bytes = jsonBytes(m);
    if (stored + bytes > limits.maxTranscriptBytes) {
      throw new LimitError('maxTranscriptBytes', `the job's stored conversation would grow to ${stored + bytes} bytes; a job keeps at most ${limits.maxTranscriptBytes}. Start a new job.`);
    }
    stored += bytes;
    messages.push(m);
    o.onMessage(m);
  };
  // The rest of a request besides the messages: model name, tool specs, tool_choice.
  const overhead = jsonBytes({ model: o.modelName, messages: [], tools: specs, tool_choice: 'auto' });
  let invalidInARow = 0;
  for (let step = 1; step <= limits.maxSteps; step++) {
    const dropped = compactForRequest(messages, limits.maxRequestBytes, overhead);
    if (dropped > 0) o.onLimit?.('maxRequestBytes', `${dropped} old tool outputs or tool-call arguments left out of the request to the model (step ${step})`);
    let reply: Extract<ChatMessage, { role: 'assistant' }>;
    try {
      reply = await o.model.complete(messages, specs, o.signal);
    } catch (err) {
      if (o.signal.aborted) throw new AgentRunError(abortReason(o.signal));
      if (err instanceof ModelError) throw new AgentRunError(err.message);
      throw err;
    }
    const all = reply.tool_calls ?? [];
    const calls = all.slice(0, limits.maxToolCallsPerReply);
    // Calls past the bound are neither run nor stored: the reply is kept as if the model had sent
    // only the first ones, and the last result tells it what happened to the others.
    const extra = all.length - calls.length;
    if (extra > 0) {
      reply = { ...reply, tool_calls: calls };
      o.onLimit?.('maxToolCallsPerReply', `a reply with ${all.length} tool calls; the first ${calls.length} ran, ${extra} were dropped (step ${step})`);
    }
    add(reply);
    if (calls.length === 0) return { summary: reply.content?.trim() || 'done', steps: step };
    let finished: string | undefined;
    let invalidThisStep = false;
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]!;
      const result = runCall(call, o);
      if (result.invalid) invalidThisStep = true;
      if (result.finish !== undefined) finished = result.finish;
      const bounded = boundToolOutput(result.content, limits.maxToolOutputBytes);
      if (bounded.cut) o.onLimit?.('maxToolOutputBytes', `the output of ${call.function.name} was cut to ${limits.maxToolOutputBytes} bytes (step ${step})`);
      let content = bounded.content;
      if (extra > 0 && i === calls.length - 1) {
        content += `\n\nnote: your reply had ${all.length} tool calls; only the first ${calls.length} were run (agent.maxToolCallsPerReply). The other ${extra} were not run: send the ones you still need in your next reply.`;
      }
      add({ role: 'tool', tool_call_id: call.id, content });
    }
    // A finish among dropped calls does not count: the model has not seen the results of its calls.
    if (finished !== undefined && extra === 0) return { summary: finished, steps: step };
    invalidInARow = invalidThisStep ? invalidInARow + 1 : 0;
    if (invalidInARow >= MAX_INVALID_CALLS_IN_A_ROW) {
      throw new AgentRunError(`the model sent invalid tool calls ${MAX_INVALID_CALLS_IN_A_ROW} times in a row (last: ${lastInvalid(calls)})`);
    }
    if (o.signal.aborted) throw new AgentRunError(abortReason(o.signal));
  }
  throw new AgentRunError(`step limit reached: the model did not finish within ${limits.maxSteps} steps (agent.maxSteps)`);
}

function runCall(call: ToolCall, o: AgentLoopOptions): { content: string; invalid?: boolean; finish?: string } {
  // The name is the model's text: as long as its reply allows. Quoted back (and logged) short.
  const name = call.function.name.length > 100 ? `${call.function.name.slice(0, 100)}…` : call.function.name;
  let args: unknown;
  try {
    args = call.function.arguments.trim() === '' ? {} : JSON.parse(call.function.arguments);
  } catch {
    o.onToolCall?.(name, {}, 'arguments are not JSON');
    return { content: `error: the arguments of ${name} are not valid JSON; send a JSON object`, invalid: true };
  }
  if (!args || typeof args !== 'object' || Array.isArray(args)) {
    o.onToolCall?.(name, {}, 'arguments are not an object');
    return { content: `error: the arguments of ${name} must be a JSON object`, invalid: true };
  }
  const a = args as Record<string, unknown>;
  if (name === 'finish') {
    o.onToolCall?.(name, {}, null);
    return { content: 'finished', finish: typeof a.summary === 'string' && a.summary.trim() ? a.summary.trim() : 'done' };
  }
  if (!o.tools.has(name)) {
    o.onToolCall?.(name, {}, 'unknown tool');
    return { content: `error: there is no tool "${name}"; use list_files, read_file, search_files, write_file, delete_file or finish`, invalid: true };
  }
  try {
    const out = o.tools.run(name, a);
    o.onToolCall?.(name, pathArg(a), null);
    return { content: out };
  } catch (err) {
    if (!(err instanceof ToolError)) throw err;
    o.onToolCall?.(name, pathArg(a), err.message);
    if (err.limit) o.onLimit?.(err.limit, err.message);
    return { content: `error: ${err.message}` };
  }
}

/** For the log: which path a call touched, never the content written. */
const pathArg = (a: Record<string, unknown>): Record<string, unknown> => (typeof a.path === 'string' ? { path: a.path.slice(0, 300) } : {});

const lastInvalid = (calls: ToolCall[]) => {
  const c = calls[calls.length - 1];
  return c ? `${c.function.name}(${c.function.arguments.slice(0, 80)})` : 'none';
};

function abortReason(signal: AbortSignal): string {
  const r = signal.reason as unknown;
  return r instanceof Error && r.message ? r.message : 'the run was aborted';
}
