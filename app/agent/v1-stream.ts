import type { Response } from 'express';
import type { AgentMessage } from '../../data/stores/agent-jobs.js';
import type { AppContext } from '../context.js';
import { toAgentSessionV1 } from './v1-view.js';

/** How often the stream looks for the job's new messages and state (the runner writes them to SQLite). */
export const STREAM_POLL_MS = 250;
/** An SSE comment this often keeps proxies from closing a quiet stream (a slow model). */
export const STREAM_HEARTBEAT_MS = 15_000;
/** Longest text, tool input field or tool output sent in one event; the stored conversation keeps all of it. */
export const STREAM_TEXT_CHARS = 4000;

const cut = (s: string, max = STREAM_TEXT_CHARS) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** Tool arguments as sent in `tool-input-available`: parsed, long strings (a written file's content) cut. */
function toolInput(args: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return { arguments: cut(args, 500) };
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return parsed;
  return Object.fromEntries(Object.entries(parsed as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'string' ? cut(v, 500) : v]));
}

/**
 * The v1 create call's answer: a Server-Sent Events stream in the AI SDK's UI message stream
 * protocol (`useChat`, as the hosted reference page suggests), following the job as the runner
 * works: `start`, per model reply a step with its text and tool calls (`tool-input-available`,
 * `tool-output-available`), then the result (a text with the pull request or the reason, a
 * `data-session` part holding the v1 session) and `finish`, or `error` when the job failed; the
 * stream ends with `data: [DONE]`. The job is durable: a client that disconnects, or a shutdown
 * that ends the stream, leaves it running; `GET /v1/agent/{projectId}/job/{id}` reads the result.
 */
export function streamJob(ctx: AppContext, res: Response, jobId: string, afterSeq: number): void {
  const store = ctx.stores.agentJobs;
  let seq = afterSeq;
  let stepOpen = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let lastWrite = Date.now();

  const send = (chunk: unknown) => {
    res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    lastWrite = Date.now();
  };
  const end = () => {
    if (closed) return;
    closed = true;
    clearTimeout(timer);
    res.write('data: [DONE]\n\n');
    res.end();
  };
  res.on('close', () => {
    closed = true;
    clearTimeout(timer);
  });

  const emit = (m: AgentMessage) => {
    const body = m.body;
    if (m.role === 'assistant') {
      if (stepOpen) send({ type: 'finish-step' });
      send({ type: 'start-step' });
      stepOpen = true;
      if (typeof body.content === 'string' && body.content.trim()) {
        const id = `text-${m.seq}`;
        send({ type: 'text-start', id });
        send({ type: 'text-delta', id, delta: cut(body.content) });
        send({ type: 'text-end', id });
      }
      const calls = Array.isArray(body.tool_calls) ? (body.tool_calls as Array<{ id: string; function: { name: string; arguments: string } }>) : [];
      for (const c of calls) send({ type: 'tool-input-available', toolCallId: c.id, toolName: c.function.name, input: toolInput(c.function.arguments) });
    } else if (m.role === 'tool') {
      send({ type: 'tool-output-available', toolCallId: String(body.tool_call_id), output: cut(String(body.content ?? '')) });
    }
    // User messages (a follow-up sent meanwhile through v2) are the caller's own words: not echoed.
  };

  const text = (s: string) => {
    const id = `text-result`;
    send({ type: 'text-start', id });
    send({ type: 'text-delta', id, delta: s });
    send({ type: 'text-end', id });
  };

  const tick = () => {
    if (closed) return;
    try {
      // State first, messages second: every message written before the job left `active` is sent.
      const job = store.get(jobId);
      for (const m of store.messagesAfter(jobId, seq)) {
        seq = m.seq;
        emit(m);
      }
      if (!job || job.status !== 'active' || ctx.lifecycle.shuttingDown) {
        if (stepOpen) send({ type: 'finish-step' });
        stepOpen = false;
        if (!job) {
          send({ type: 'error', errorText: 'The job is gone (archived and removed)' });
        } else if (job.status === 'active') {
          text(`The appliance is shutting down; the job goes on after the restart. Poll GET /v1/agent/${job.projectId}/job/${job.id} for its result.`);
          send({ type: 'finish' });
        } else {
          const session = toAgentSessionV1(job);
          if (session.haultReason === 'error') {
            send({ type: 'data-session', data: session });
            send({ type: 'error', errorText: session.messageToUser });
          } else {
            text(job.prLink ? `${session.messageToUser}\n\nPull request: ${job.prLink}` : (session.messageToUser ?? ''));
            send({ type: 'data-session', data: session });
            send({ type: 'finish' });
          }
        }
        end();
        return;
      }
      if (Date.now() - lastWrite >= STREAM_HEARTBEAT_MS) {
        res.write(': keep-alive\n\n');
        lastWrite = Date.now();
      }
    } catch (err) {
      ctx.log.error({ err, agentJob: jobId }, 'agent v1 stream failed; the job goes on');
      send({ type: 'error', errorText: `The stream failed; the job goes on. Poll GET /v1/agent/{projectId}/job/${jobId}` });
      end();
      return;
    }
    timer = setTimeout(tick, STREAM_POLL_MS);
  };

  send({ type: 'start', messageId: jobId });
  tick();
}
