import type { WarningSummary } from '../../app/loader/render-warnings.js';
import type { Db } from '../db.js';

/** A page a keepGoing export left out (the renderer's RenderFailure, as stored). */
export interface ExportJobFailure {
  path?: string;
  file: string;
  line?: number;
  column?: number;
  message: string;
}

/** A job's states, shared by the queue, the API view, the console and the OpenAPI document. */
export const EXPORT_JOB_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type ExportJobStatus = (typeof EXPORT_JOB_STATUSES)[number];

/** A job that will not change any more (the console stops polling it). */
export const exportJobFinished = (status: ExportJobStatus): boolean => status === 'completed' || status === 'failed';

/** A static export job as stored (the API shows a subset: app/static-export/job-view.ts). */
export interface ExportJob {
  id: string;
  orgId: string;
  projectId: string;
  domain: string;
  requestedVersion: string | null;
  /** The label written into the manifest; set when the job starts. */
  version: string | null;
  paths: string[] | null;
  /** Export the pages that render and list the rest instead of failing (the request's keepGoing). */
  keepGoing: boolean;
  /** Pages a completed keepGoing export left out; null until it completes, and without keepGoing. */
  failures: ExportJobFailure[] | null;
  /** The bundle's render warnings, for a job completed since migration 14. */
  warnings: WarningSummary | null;
  status: ExportJobStatus;
  progress: number;
  pageCount: number;
  error: string | null;
  attempts: number;
  sizeBytes: number | null;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  filesDeletedAt: string | null;
}

interface Row {
  id: string;
  org_id: string;
  project_id: string;
  domain: string;
  requested_version: string | null;
  version: string | null;
  paths: string | null;
  keep_going: number;
  failures: string | null;
  warnings: string | null;
  status: ExportJobStatus;
  progress: number;
  page_count: number;
  error: string | null;
  attempts: number;
  size_bytes: number | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  files_deleted_at: string | null;
}

const toJob = (r: Row): ExportJob => ({
  id: r.id,
  orgId: r.org_id,
  projectId: r.project_id,
  domain: r.domain,
  requestedVersion: r.requested_version,
  version: r.version,
  paths: r.paths === null ? null : (JSON.parse(r.paths) as string[]),
  keepGoing: r.keep_going === 1,
  failures: r.failures === null ? null : (JSON.parse(r.failures) as ExportJobFailure[]),
  warnings: r.warnings === null ? null : (JSON.parse(r.warnings) as WarningSummary),
  status: r.status,
  progress: r.progress,
  pageCount: r.page_count,
  error: r.error,
  attempts: r.attempts,
  sizeBytes: r.size_bytes,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  filesDeletedAt: r.files_deleted_at,
});

export interface NewExportJob {
  id: string;
  orgId: string;
  projectId: string;
  domain: string;
  requestedVersion?: string | undefined;
  paths?: string[] | undefined;
  keepGoing?: boolean | undefined;
}

/**
 * Export jobs and their queue. The queue is the table itself, so it survives restarts: the runner
 * claims the oldest queued row in an IMMEDIATE transaction (no two runners take the same job).
 * `progress` and `page_count` only ever grow (MAX in the UPDATE), also across a re-run.
 */
export function createExportJobStore(db: Db, now: () => Date) {
  const iso = () => now().toISOString();
  const insert = db.prepare(
    `INSERT INTO export_jobs (id, org_id, project_id, domain, requested_version, paths, keep_going, status, created_at, updated_at)
     VALUES (@id, @orgId, @projectId, @domain, @requestedVersion, @paths, @keepGoing, 'queued', @now, @now)`,
  );
  const get = db.prepare<[string], Row>('SELECT * FROM export_jobs WHERE id = ?');
  const oldestQueued = db.prepare<[], Row>("SELECT * FROM export_jobs WHERE status = 'queued' ORDER BY created_at, id LIMIT 1");
  const markRunning = db.prepare(
    "UPDATE export_jobs SET status = 'running', attempts = attempts + 1, started_at = @now, updated_at = @now WHERE id = @id AND status = 'queued'",
  );
  const setVersion = db.prepare('UPDATE export_jobs SET version = @version, updated_at = @now WHERE id = @id');
  const progress = db.prepare(
    `UPDATE export_jobs SET progress = MAX(progress, @progress), page_count = MAX(page_count, @pageCount), updated_at = @now
     WHERE id = @id AND status = 'running'`,
  );
  const complete = db.prepare(
    `UPDATE export_jobs SET status = 'completed', progress = 100, page_count = @pageCount, size_bytes = @sizeBytes, error = NULL,
       failures = @failures, warnings = @warnings, finished_at = @now, updated_at = @now WHERE id = @id AND status = 'running'`,
  );
  const fail = db.prepare(
    "UPDATE export_jobs SET status = 'failed', error = @error, finished_at = @now, updated_at = @now WHERE id = @id AND status IN ('queued', 'running')",
  );
  const requeue = db.prepare(
    `UPDATE export_jobs SET status = 'queued', attempts = MAX(0, attempts - @refund), started_at = NULL, updated_at = @now
     WHERE id = @id AND status = 'running'`,
  );
  const queued = db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM export_jobs WHERE status = 'queued'");
  const queuedForOrg = db.prepare<[string], { n: number }>("SELECT COUNT(*) AS n FROM export_jobs WHERE status = 'queued' AND org_id = ?");
  const byStatus = db.prepare<[string], Row>('SELECT * FROM export_jobs WHERE status = ? ORDER BY created_at, id');
  const finishedBefore = db.prepare<[string], Row>(
    `SELECT * FROM export_jobs WHERE status IN ('completed', 'failed') AND files_deleted_at IS NULL AND finished_at < ?
     ORDER BY finished_at`,
  );
  const byProject = db.prepare<[string, number], Row>('SELECT * FROM export_jobs WHERE project_id = ? ORDER BY created_at DESC, id LIMIT ?');
  const filesDeleted = db.prepare('UPDATE export_jobs SET files_deleted_at = @now, updated_at = @now WHERE id = @id');

  return {
    create(job: NewExportJob): ExportJob {
      insert.run({
        id: job.id,
        orgId: job.orgId,
        projectId: job.projectId,
        domain: job.domain,
        requestedVersion: job.requestedVersion ?? null,
        paths: job.paths ? JSON.stringify(job.paths) : null,
        keepGoing: job.keepGoing ? 1 : 0,
        now: iso(),
      });
      return this.get(job.id)!;
    },
    get(id: string): ExportJob | undefined {
      const row = get.get(id);
      return row && toJob(row);
    },
    /** The job if it belongs to the organization; undefined otherwise (callers answer 404). */
    getForOrg(id: string, orgId: string): ExportJob | undefined {
      const job = this.get(id);
      return job && job.orgId === orgId ? job : undefined;
    },
    /** Take the oldest queued job and mark it running, atomically. */
    claimNext(): ExportJob | undefined {
      return db
        .transaction((): ExportJob | undefined => {
          const row = oldestQueued.get();
          if (!row) return undefined;
          markRunning.run({ id: row.id, now: iso() });
          return this.get(row.id);
        })
        .immediate();
    },
    setVersion(id: string, version: string): void {
      setVersion.run({ id, version, now: iso() });
    },
    updateProgress(id: string, value: number, pageCount: number): void {
      progress.run({ id, progress: Math.min(100, Math.max(0, value)), pageCount, now: iso() });
    },
    complete(id: string, result: { pageCount: number; sizeBytes: number; failures?: ExportJobFailure[]; warnings?: WarningSummary }): void {
      complete.run({ id, pageCount: result.pageCount, sizeBytes: result.sizeBytes, failures: result.failures ? JSON.stringify(result.failures) : null, warnings: result.warnings ? JSON.stringify(result.warnings) : null, now: iso() });
    },
    fail(id: string, error: string): void {
      fail.run({ id, error, now: iso() });
    },
    /** Back to the queue; `refundAttempt` when the run was stopped on purpose rather than crashed. */
    requeue(id: string, refundAttempt: boolean): void {
      requeue.run({ id, refund: refundAttempt ? 1 : 0, now: iso() });
    },
    /** Jobs waiting to run: of one organization, or of all. */
    countQueued(orgId?: string): number {
      return (orgId === undefined ? queued.get() : queuedForOrg.get(orgId))!.n;
    },
    listByStatus(status: ExportJobStatus): ExportJob[] {
      return byStatus.all(status).map(toJob);
    },
    /** Finished jobs whose files are still on disk and that finished before `before`. */
    /** A project's newest jobs first, at most `limit` (the console's table). */
    listForProject(projectId: string, limit: number): ExportJob[] {
      return byProject.all(projectId, limit).map(toJob);
    },
    listFinishedBefore(before: Date): ExportJob[] {
      return finishedBefore.all(before.toISOString()).map(toJob);
    },
    markFilesDeleted(id: string): void {
      filesDeleted.run({ id, now: iso() });
    },
  };
}

export type ExportJobStore = ReturnType<typeof createExportJobStore>;
