import { ApiError } from '../errors.js';
import type { CallerMessage } from './prompt.js';

const MAX_MESSAGES = 100;

/**
 * A caller's `messages` (AI SDK v4 `content`/`parts` or v5 `parts`) as plain user and assistant
 * text. `system` and `data` messages are dropped: the appliance's instructions are its own, and a
 * caller cannot replace or extend them. Reasoning, file and source parts are not text the model
 * needs again.
 */
export function callerMessages(raw: unknown): CallerMessage[] {
  if (!Array.isArray(raw) || raw.length === 0) throw new ApiError(400, 'BAD_REQUEST', '"messages" must be a non-empty array');
  if (raw.length > MAX_MESSAGES) throw new ApiError(400, 'BAD_REQUEST', `At most ${MAX_MESSAGES} messages per request`);
  const out: CallerMessage[] = [];
  for (const m of raw) {
    if (!m || typeof m !== 'object') throw new ApiError(400, 'BAD_REQUEST', 'Each message must be an object');
    const { role, content, parts } = m as { role?: unknown; content?: unknown; parts?: unknown };
    if (role !== 'user' && role !== 'assistant') continue;
    let text = '';
    if (Array.isArray(parts)) {
      text = parts
        .filter((p): p is { type: 'text'; text: string } => !!p && typeof p === 'object' && (p as { type?: unknown }).type === 'text' && typeof (p as { text?: unknown }).text === 'string')
        .map((p) => p.text)
        .join('');
    }
    if (!text && typeof content === 'string') text = content;
    if (text) out.push({ role, content: text });
  }
  return out;
}
