import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { DestinationStream } from 'pino';

/** Loaded only when pretty lines are wanted: every other process (CLI commands, JSON logs) saves its ~25 ms load. */
const load = () => createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');

/**
 * Human log lines for a person at a terminal: `[12:00:01.234] INFO: listening` and the line's
 * fields indented below it. The same lines as the JSON log (pino redacts before this sees them),
 * formatted in the writing call and written synchronously, as the JSON log is (app/logger.ts): a
 * process that dies at once still leaves the line it logged. Colours only on a terminal.
 */
export function prettyDestination(stdout: NodeJS.WriteStream = process.stdout): DestinationStream {
  const format = load().prettyFactory({
    colorize: stdout.isTTY === true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service',
  });
  // A replaced process.stdout.write (a test runner capturing output) is honoured, as for JSON.
  const replaced = stdout.write !== (stdout.constructor as { prototype: { write: unknown } }).prototype.write;
  return {
    write(line: string) {
      const text = format(line);
      if (replaced || stdout !== process.stdout) stdout.write(text);
      else fs.writeSync(1, text);
    },
  };
}
