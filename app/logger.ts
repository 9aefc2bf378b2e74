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

/** `?signature=abc&expires=1` → `?signature=[REDACTED]&expires=1`: URLs are logged, signatures are not. */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:signature|sig|token|key|access_token)=)[^&#]*/gi, '$1[REDACTED]');
}
