/**
 * The export thread's task module (see export-thread.ts): runs `exportSite` off the main thread
 * with the one render pool the static export feature uses. Progress goes out and an abort comes
 * in over the MessagePort each task carries.
 */
import { summariseWarnings } from '../loader/render-warnings.js';
import fs from 'node:fs';
import os from 'node:os';
import type { MessagePort } from 'node:worker_threads';
import { createRenderPool, ExportError, exportSite, loadSite, planSite, UnknownPathsError, type ExportProgress, type RenderPool } from '../../renderer/index.js';
import type { ExportTask, ExportTaskResult } from './export-protocol.js';
import { packBundle } from './access-variants.js';

let pool: RenderPool | undefined;

/**
 * Exports are background work: this thread runs at a lower CPU priority (nice 10), and so do the
 * render workers it starts (a Linux thread inherits its creator's nice value). When the cores are
 * busy, the thread answering HTTP (pollers) goes first. Linux only: elsewhere, and if /proc is
 * not there, nothing changes.
 */
function lowerPriority(): void {
  try {
    const tid = Number(/task\/(\d+)$/.exec(fs.readlinkSync('/proc/thread-self'))?.[1]);
    if (tid > 0) os.setPriority(tid, 10);
  } catch {
    // Not Linux, or not allowed: exports simply run at normal priority.
  }
}
lowerPriority();

async function runExport(task: Extract<ExportTask, { type: 'run' }>): Promise<ExportTaskResult> {
  const port: MessagePort = task.port;
  const abort = new AbortController();
  port.on('message', (m: { type: 'abort'; reason: string }) => {
    if (m.type === 'abort') abort.abort(new Error(m.reason));
  });
  try {
    pool ??= createRenderPool(task.threads > 0 ? { threads: task.threads } : {});
    const { outTarGz, outAllZip, outAllTarGz, ...request } = task.request;
    const result = await exportSite({
      ...request,
      pool,
      signal: abort.signal,
      onProgress: (progress: ExportProgress) => port.postMessage({ type: 'progress', progress }),
    });
    const started = performance.now();
    const packed = outTarGz ? await packBundle({ outZip: request.outZip, outTarGz, outAllZip, outAllTarGz, createdAt: request.createdAt }, abort.signal) : { tarGzBytes: 0 };
    const tarGzBytes = packed.tarGzBytes;
    const warningSummaryOf = (r: typeof result) => {
      const files = new Set(r.manifest.files.map((f) => f.path));
      return summariseWarnings(r.warnings, (rel) => files.has(rel));
    };
    const timings = { ...result.timings, ...(outTarGz ? { tarGz: Math.round(performance.now() - started) } : {}) };
    return {
      ok: true,
      outcome: {
        pageCount: result.pageCount,
        sizeBytes: ('sizeBytes' in packed ? packed.sizeBytes : undefined) ?? result.sizeBytes ?? null,
        tarGzBytes,
        warnings: warningSummaryOf(result),
        failures: result.failures,
        timings,
        ...(result.memo ? { memo: { ...result.memo } } : {}),
      },
    };
  } catch (err) {
    return {
      ok: false,
      error: {
        message: err instanceof Error ? err.message : String(err),
        stack: err instanceof Error ? err.stack : undefined,
        exportError: err instanceof ExportError,
        failures: err instanceof ExportError ? err.failures.length : 0,
        aborted: abort.signal.aborted,
      },
    };
  } finally {
    port.close();
  }
}

/**
 * Which `paths` entries match no page. Any other problem with the source (a broken docs.json) is
 * the export's to report, with file and line, so it does not count here.
 */
function checkPaths(sourceDir: string, paths: string[]): ExportTaskResult {
  try {
    planSite(loadSite(sourceDir), { paths });
  } catch (err) {
    if (err instanceof UnknownPathsError) return { ok: true, outcome: null, unknownPaths: err.unknown };
  }
  return { ok: true, outcome: null };
}

export default async function exportTask(task: ExportTask): Promise<ExportTaskResult> {
  if (task.type === 'checkPaths') return checkPaths(task.sourceDir, task.paths);
  if (task.type === 'close') {
    const p = pool;
    pool = undefined;
    await p?.close();
    return { ok: true, outcome: null };
  }
  return runExport(task);
}
