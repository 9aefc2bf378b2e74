import { pino, type Logger, type DestinationStream } from 'pino';

export type { Logger };

/**
 * Structured JSON lines. Secrets never reach a line: the Authorization header, key material and
 * signed-link signatures are redacted wherever they appear.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
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

/** Query parameters whose values are credentials (compared lower-case, after percent-decoding the name). */
export const SECRET_PARAMS: readonly string[] = ['signature', 'sig', 'token', 'key', 'access_token'];

/**
 * `?signature=abc&expires=1` → `?signature=[REDACTED]&expires=1`: URLs are logged, signatures are
 * not. Names are decoded before matching, so `%73ignature=` is redacted like `signature=`.
 */
export function redactUrl(url: string): string {
  return url.replace(/([?&])([^=&#]*)=([^&#]*)/g, (whole, sep: string, name: string) => (SECRET_PARAMS.includes(decodeName(name).toLowerCase()) ? `${sep}${name}=[REDACTED]` : whole));
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}
