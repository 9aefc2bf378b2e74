import { pino, type Logger, type DestinationStream } from 'pino';
import { prettyDestination } from './log-pretty.js';

export type { Logger };

/** `log.format`: `auto` is human lines on a terminal and JSON lines everywhere else. */
export type LogFormat = 'auto' | 'json' | 'pretty';

/**
 * Standard output, written synchronously: each line is in the kernel's hands before the next
 * statement runs, so a process that dies without running its exit handlers (a native abort, the
 * OOM killer, SIGKILL) loses no line it logged. pino's default buffers lines in memory until an
 * asynchronous write completes: an abort in the same tick lost the line that says where the
 * initial admin key was written. Pipes to a container runtime's log are synchronous in Node's
 * own process.stdout too; this costs a write(2) per line.
 */
function standardOutput(): DestinationStream {
  // A replaced process.stdout.write (a test runner capturing output) is honoured, as pino does.
  const stdout = process.stdout as NodeJS.WriteStream & { constructor: { prototype: { write: unknown } } };
  if (stdout.write !== stdout.constructor.prototype.write) return stdout;
  return pino.destination({ dest: 1, sync: true });
}

/** Where serve's log goes: JSON lines on standard output, or human lines (`pretty`, or `auto` on a terminal). */
export function logDestination(format: LogFormat, stdout: NodeJS.WriteStream = process.stdout): DestinationStream {
  const pretty = format === 'pretty' || (format === 'auto' && stdout.isTTY === true);
  return pretty ? prettyDestination(stdout) : standardOutput();
}

/**
 * Structured JSON lines. Secrets never reach a line: the Authorization header, key material and
 * signed-link signatures are redacted wherever they appear.
 */
export function createLogger(level: string, destination: DestinationStream = standardOutput()): Logger {
  return pino(
    {
      level,
      base: { service: 'docs-appliance' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: ['authorization', 'headers.authorization', 'req.headers.authorization', 'key', '*.key', 'signature', '*.signature', 'token', '*.token', 'apiKey', '*.apiKey'],
        censor: '[REDACTED]',
      },
    },
    destination,
  );
}

/**
 * Query parameters whose values are never secret and help reading a log (when a link expires,
 * which key signed it). Every other value is blanked: the names of secret parameters are
 * open-ended (X-Amz-Signature, X-Amz-Security-Token, X-Amz-Credential, X-Goog-Signature,
 * X-Goog-Credential, sig, token, ...), so an allow-list is the only list that cannot miss one.
 */
const VISIBLE_PARAMS = new Set(['expires', 'kid', 'x-amz-expires', 'x-amz-date', 'x-amz-algorithm', 'x-amz-signedheaders', 'x-goog-expires', 'x-goog-date', 'x-goog-algorithm', 'x-goog-signedheaders']);

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}

/**
 * A URL as it may be logged: user:password blanked, every query value blanked except the
 * harmless ones above (names compared after percent-decoding, so `%73ignature` is `signature`),
 * the fragment blanked. `{ query: 'drop' }` keeps only `?…` where the query was: for messages that
 * reach an unauthenticated page (/readyz). Works on the text as given: no normalisation.
 */
export function redactUrl(url: string, opts: { query?: 'blank' | 'drop' } = {}): string {
  const hash = url.indexOf('#');
  const beforeHash = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? '' : '#[REDACTED]';
  const q = beforeHash.indexOf('?');
  const base = (q === -1 ? beforeHash : beforeHash.slice(0, q)).replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, '$1[REDACTED]@');
  if (q === -1) return base + fragment;
  if (opts.query === 'drop') return `${base}?…`;
  const query = beforeHash
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      if (VISIBLE_PARAMS.has(decodeName(name))) return pair;
      if (eq === -1) return pair === '' ? pair : '[REDACTED]';
      return `${name}=[REDACTED]`;
    })
    .join('&');
  return `${base}?${query}${fragment}`;
}
