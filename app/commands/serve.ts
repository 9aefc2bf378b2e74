import { loadConfig, ConfigError } from '../../config/load.js';
import type { Appliance, ReloadSummary } from '../appliance.js';
import { ReloadRefusedError } from '../lifecycle/reload-plan.js';
import { installFatalHandlers } from '../fatal.js';
import { runByNpm, startWatchdog } from '../lifecycle/watchdog.js';
import { createLogger, logDestination, type Logger } from '../logger.js';
import { runtimeGate } from '../runtime-guard.js';
import { StateLockedError } from '../state-lock.js';
import { parse, println, type Command } from './io.js';

export const serveCommand: Command = {
  summary: 'Run the appliance (admin API and docs site); the default command',
  usage: 'docs-appliance serve [--config <file>]',
  async run(argv, io) {
    // Signals are ours before anything is logged, not only once the appliance is up: a SIGTERM
    // that arrives while it starts (an orchestrator that gave up waiting, a test that saw a log
    // line) is kept and honoured as a graceful stop the moment the start ends, never the default
    // handler's abrupt exit.
    let onSignal: (signal: string) => void;
    let early: string | undefined;
    onSignal = (signal) => (early ??= signal);
    process.once('SIGTERM', () => onSignal('SIGTERM'));
    process.once('SIGINT', () => onSignal('SIGINT'));
    let reloadAsked = false;
    let onReload = (): void => {
      reloadAsked = true;
    };
    process.on('SIGHUP', () => onReload());
    const { values } = parse(argv, {}, false);
    let config;
    try {
      config = loadConfig({ file: values.config, env: io.env, cwd: io.cwd });
    } catch (err) {
      if (err instanceof ConfigError) {
        println(io.stderr, err.message);
        return 78; // EX_CONFIG
      }
      throw err;
    }
    const log = createLogger(config.log.level, logDestination(config.log.format));
    installFatalHandlers(log);
    logRuntimeWarning(log, io.env);
    // The appliance (every feature, the renderer's pool) loads here, not with the CLI: the other
    // commands and `--help` start in a fraction of the time.
    const { startAppliance, StartupError } = await import('../appliance.js');
    let appliance: Appliance;
    try {
      appliance = await startAppliance({ config, log });
    } catch (err) {
      // Expected refusals are one clear line; anything else keeps its stack.
      if (err instanceof StartupError || err instanceof StateLockedError) {
        log.fatal({ code: err instanceof StartupError ? err.code : 'STATE_LOCKED' }, `start-up failed: ${err.message}`);
        return 1;
      }
      log.fatal({ err }, 'start-up failed');
      return 1;
    }

    await new Promise<void>((resolve) => {
      let stopping = false;
      const shutdown = (signal: string) => {
        if (stopping) return;
        stopping = true;
        // Enforced by the watchdog thread too: it holds even if the main thread stalls while stopping.
        watchdog.stopping(config.shutdown.timeoutMs);
        // A hard limit below the orchestrator's grace period: a stuck close must not hang the pod.
        const timer = setTimeout(() => {
          log.error({ signal, timeoutMs: config.shutdown.timeoutMs }, 'graceful shutdown timed out; exiting');
          process.exit(1);
        }, config.shutdown.timeoutMs);
        timer.unref();
        appliance
          .stop(signal)
          .then(() => watchdog.close())
          .then(resolve, (err: unknown) => {
            log.error({ err }, 'shutdown failed');
            process.exit(1);
          });
      };
      const watchdog = startWatchdog({ stallMs: config.shutdown.stallMs, stopWithParent: runByNpm(io.env), onParentGone: () => shutdown('parent exited') });
      onSignal = shutdown;
      if (early !== undefined) shutdown(early);
      onReload = () => {
        try {
          const next = loadConfig({ file: values.config, env: io.env, cwd: io.cwd });
          log.info('SIGHUP: reloading');
          appliance.reload(next).then(
            (summary) => logReloaded(log, appliance, summary),
            (err: unknown) => {
              if (err instanceof ReloadRefusedError) log.error({ code: 'RELOAD_REFUSED' }, `SIGHUP: reload refused: ${err.message}; keeping the running config`);
              else log.error({ err }, 'reload failed');
            },
          );
        } catch (err) {
          log.error({ err: (err as Error).message }, 'SIGHUP: config is invalid; keeping the running one');
        }
      };
      if (reloadAsked && early === undefined) onReload();
    });
    return 0;
  },
};

/** One line per reload: which projects came, went or changed, and each part kept until a restart. */
function logReloaded(log: Logger, appliance: Appliance, { projects, kept }: ReloadSummary): void {
  for (const why of kept) log.warn({ code: 'RELOAD_NEEDS_RESTART' }, `SIGHUP: ${why}`);
  const name = (id: string) => {
    const domain = appliance.ctx.stores.projects.get(id)?.domain;
    return domain ? `${id} (${domain})` : id;
  };
  const list = (ids: string[]) => (ids.length ? ids.map(name).join(', ') : 'none');
  const { added, removed, changed } = projects;
  log.info({ projects }, `SIGHUP: reloaded; projects added: ${list(added)}; removed: ${list(removed)}; changed: ${list(changed)}`);
}

/** Once per start, in the operator's log: an end-of-life Node, or a pair known to abort that was allowed. */
function logRuntimeWarning(log: Logger, env: NodeJS.ProcessEnv): void {
  const gate = runtimeGate(env);
  if (gate.refuse !== undefined || gate.warning === undefined) return;
  const { kind, runtime } = gate.assessment;
  log.warn({ code: kind === 'aborts' ? 'UNSUPPORTED_RUNTIME' : 'NODE_END_OF_LIFE', node: runtime.node, driver: runtime.driver }, gate.warning);
}
