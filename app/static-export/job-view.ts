import type { ExportJob } from '../../data/stores/export-jobs.js';

/** Failures listed in a job's status; all of them are in the bundle's manifest.json. */
export const LISTED_JOB_FAILURES = 100;

/** StaticExportJob as the API shows it (DESIGN 3.4); `error` only on a failed job. */
export function jobView(job: ExportJob) {
  return {
    jobId: job.id,
    status: job.status,
    progress: job.progress,
    pageCount: job.pageCount,
    domain: job.domain,
    ...(job.version !== null ? { version: job.version } : {}),
    ...(job.keepGoing ? { keepGoing: true } : {}),
    ...(job.warnings !== null ? job.warnings : {}),
    ...(job.failures !== null ? { failureCount: job.failures.length, failures: job.failures.slice(0, LISTED_JOB_FAILURES) } : {}),
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    ...(job.status === 'failed' ? { error: job.error ?? 'Export failed' } : {}),
  };
}
