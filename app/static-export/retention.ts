import type { ExportJobStore } from '../../data/stores/export-jobs.js';
import type { Logger } from '../logger.js';
import type { ExportFiles } from './files.js';

const DAY_MS = 24 * 3600 * 1000;

/**
 * Delete the files of exports that finished more than `retentionDays` ago. The job row stays
 * (still `completed`, or `failed`) with `files_deleted_at` set, so its bundle call can say why
 * there is nothing to download.
 */
export function applyRetention(opts: { store: ExportJobStore; files: ExportFiles; now: Date; retentionDays: number; log: Logger }) {
  const cutoff = new Date(opts.now.getTime() - opts.retentionDays * DAY_MS);
  let removed = 0;
  let bytes = 0;
  for (const job of opts.store.listFinishedBefore(cutoff)) {
    bytes += opts.files.remove(job.id);
    opts.store.markFilesDeleted(job.id);
    removed += 1;
    opts.log.info({ jobId: job.id, finishedAt: job.finishedAt, retentionDays: opts.retentionDays }, 'export files removed by retention');
  }
  return { removed, bytes, cutoff: cutoff.toISOString() };
}
