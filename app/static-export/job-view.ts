import type { ExportJob } from '../../data/stores/export-jobs.js';

/** StaticExportJob as the API shows it (DESIGN 3.4); `error` only on a failed job. */
export function jobView(job: ExportJob) {
  return {
    jobId: job.id,
    status: job.status,
    progress: job.progress,
    pageCount: job.pageCount,
    domain: job.domain,
    ...(job.version !== null ? { version: job.version } : {}),
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    ...(job.status === 'failed' ? { error: job.error ?? 'Export failed' } : {}),
  };
}
