import type { Logger } from './logger.js';

/** The exit status after an uncaught exception or unhandled rejection (EX_SOFTWARE). */
export const FATAL_EXIT_CODE = 70;

/**
 * The last line of defence, not the error handling: every request path handles its own faults
 * (docs/operations.md, "Exit codes"). A fault that still escapes leaves the process in an unknown
 * state, so it is logged once, with its stack, and the process exits 70 for the supervisor to
 * restart it, rather than serving on half-broken or dying with Node's generic 1.
 */
export function installFatalHandlers(log: Logger, exit: (code: number) => void = (code) => process.exit(code)): () => void {
  let exiting = false;
  const onFatal = (kind: string) => (err: unknown) => {
    if (exiting) return;
    exiting = true;
    try {
      log.fatal({ err, exitCode: FATAL_EXIT_CODE }, `${kind}: exiting with status ${FATAL_EXIT_CODE}`);
      log.flush?.();
    } finally {
      exit(FATAL_EXIT_CODE);
    }
  };
  const onException = onFatal('uncaught exception');
  const onRejection = onFatal('unhandled promise rejection');
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  return () => {
    process.off('uncaughtException', onException);
    process.off('unhandledRejection', onRejection);
  };
}
