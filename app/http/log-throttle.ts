import type { Logger } from '../logger.js';

/** Distinct keys remembered; past this the memory is reset (a flood of new keys logs again, bounded). */
const MAX_KEYS = 256;

export interface LogThrottle {
  /** Log `msg` unless a line with the same key was logged less than `intervalMs` ago; says how many were held back. */
  warn(key: string, fields: Record<string, unknown>, msg: string): void;
  /** As `warn`, at error level (a fault the operator must fix, such as a full disk). */
  error(key: string, fields: Record<string, unknown>, msg: string): void;
}

/**
 * Readers control what reaches some warnings (a bad path, a broken beacon): one line per kind and
 * interval, with the number held back since the last one, so a client looping on a bad request
 * cannot fill the disk with log lines.
 */
export function createLogThrottle(log: Logger, intervalMs = 60_000, now: () => number = Date.now): LogThrottle {
  const seen = new Map<string, { at: number; suppressed: number }>();
  const emit = (level: 'warn' | 'error', key: string, fields: Record<string, unknown>, msg: string) => {
    const t = now();
    const s = seen.get(key);
    if (s && t - s.at < intervalMs) {
      s.suppressed++;
      return;
    }
    if (seen.size >= MAX_KEYS) seen.clear();
    seen.set(key, { at: t, suppressed: 0 });
    log[level]({ ...fields, ...(s?.suppressed ? { suppressedSinceLast: s.suppressed } : {}) }, msg);
  };
  return {
    warn: (key, fields, msg) => emit('warn', key, fields, msg),
    error: (key, fields, msg) => emit('error', key, fields, msg),
  };
}
