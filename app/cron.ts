import cron from 'node-cron';
import type { Logger } from './logger.js';
import type { SettingsStore } from '../data/stores/settings.js';

/** A periodic job. All of them are declared by the features and started and stopped together. */
export interface CronJob {
  name: string;
  /** Cron expression (node-cron syntax, seconds optional). */
  schedule: string;
  run: () => Promise<unknown> | unknown;
}

export interface CronRunner {
  stop(): Promise<void>;
  /** Run one job now (CLI and tests); same logging and bookkeeping as a scheduled tick. */
  runNow(name: string): Promise<void>;
}

export function startCron(jobs: readonly CronJob[], log: Logger, settings: SettingsStore): CronRunner {
  const running = new Set<Promise<void>>();
  const execute = async (job: CronJob) => {
    const started = Date.now();
    try {
      const result = await job.run();
      settings.set(`cron.${job.name}.lastRun`, new Date().toISOString());
      log.info({ cron: job.name, ms: Date.now() - started, result }, 'cron job done');
    } catch (err) {
      log.error({ cron: job.name, err }, 'cron job failed');
    }
  };
  const tasks = jobs.map((job) => {
    if (!cron.validate(job.schedule)) throw new Error(`Invalid cron schedule for ${job.name}: ${job.schedule}`);
    return cron.schedule(
      job.schedule,
      () => {
        const p = execute(job);
        running.add(p);
        void p.finally(() => running.delete(p));
      },
      { name: job.name, noOverlap: true },
    );
  });
  log.info({ jobs: jobs.map((j) => `${j.name} (${j.schedule})`) }, 'cron started');
  return {
    async stop() {
      for (const t of tasks) await t.stop();
      await Promise.all([...running]);
    },
    async runNow(name) {
      const job = jobs.find((j) => j.name === name);
      if (!job) throw new Error(`No cron job named ${name}`);
      await execute(job);
    },
  };
}
