import { createExportThread, type ExportRunner } from '../../app/static-export/export-thread.js';

const runners = new Map<number, ExportRunner>();

/**
 * One warm export thread (and render pool) per `renderer.threads` value, shared by every test
 * appliance a vitest fork builds. Starting one costs a second or more of CPU (the thread and its
 * render workers load the renderer through tsx), and most suites build an appliance per test.
 * The appliance's features are handed it (createFeatures' `exportRunner`) and leave it running
 * when they stop; the fork's exit ends it. Each appliance still has its own state dir, database,
 * queue and listeners: the thread only renders what a job asks for and keeps no state between
 * exports but the warm render pool.
 */
export function sharedExportRunner(threads: number): ExportRunner {
  let runner = runners.get(threads);
  if (!runner) runners.set(threads, (runner = createExportThread({ threads })));
  return runner;
}
