import crypto from 'node:crypto';
import type { Db } from '../db.js';

/**
 * The vocabulary of a publish record, shared by the service that writes it and every reader (the
 * update-status view, the console, the CLI, the OpenAPI document): a reader that compares against a
 * value not listed here fails the type check instead of never matching.
 */
export const PUBLISH_KINDS = ['publish', 'preview', 'rollback'] as const;
export type PublishKind = (typeof PUBLISH_KINDS)[number];

/** The hosted update-status values, in the order a record goes through them. */
export const PUBLISH_STATUSES = ['queued', 'in_progress', 'success', 'failure'] as const;
export type PublishStatus = (typeof PUBLISH_STATUSES)[number];
/** How a record ends. */
export type FinishedPublishStatus = Extract<PublishStatus, 'success' | 'failure'>;

/** The Git hosts whose push webhooks the appliance understands. */
export const WEBHOOK_HOSTS = ['gitea', 'github', 'gitlab'] as const;
export type WebhookHost = (typeof WEBHOOK_HOSTS)[number];

/** What started a record: the hosted API, the console, the CLI, the branch poll or a host's webhook. */
export const PUBLISH_TRIGGERS = ['api', 'cli', 'console', 'poll', 'webhook:gitea', 'webhook:gitlab', 'webhook:github'] as const;
export type PublishTrigger = (typeof PUBLISH_TRIGGERS)[number];

export interface FilesChanged {
  added: string[];
  modified: string[];
  removed: string[];
}

/** One publish, preview deployment or rollback, as stored (the API view: app/publish/status-view.ts). */
export interface PublishRecord {
  id: string;
  projectId: string;
  kind: PublishKind;
  trigger: PublishTrigger;
  branch: string | null;
  status: PublishStatus;
  commitSha: string | null;
  commitMessage: string | null;
  commitAuthor: string | null;
  filesChanged: FilesChanged | null;
  version: string | null;
  previewHost: string | null;
  summary: string | null;
  logs: string[];
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
  durationMs: number | null;
  /** Where the time went, once the publish ended (null before, and for publishes older than migration 16). */
  stages: PublishStages | null;
}

/**
 * Wall milliseconds per stage of a publish: `source` (Git checkout or fetch, or reading the
 * directory), `export` (the render, with the renderer's own stages in `exportStages`), `verify`
 * (the bundle checked and extracted as any bundle is), `activate` (the atomic swap).
 */
export interface PublishStages {
  source?: number;
  export?: number;
  verify?: number;
  activate?: number;
  exportStages?: Record<string, number>;
  /** Which render ran (issue 43): `incremental` when the slot's render memo gave back pages. */
  render?: { mode: 'incremental' | 'full'; pagesRendered: number; pagesReused: number };
}

interface Row {
  id: string;
  project_id: string;
  kind: PublishKind;
  trigger: PublishTrigger;
  branch: string | null;
  status: PublishStatus;
  commit_sha: string | null;
  commit_message: string | null;
  commit_author: string | null;
  files_changed: string | null;
  version: string | null;
  preview_host: string | null;
  summary: string | null;
  logs: string;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  duration_ms: number | null;
  stages: string | null;
}

const toRecord = (r: Row): PublishRecord => ({
  id: r.id,
  projectId: r.project_id,
  kind: r.kind,
  trigger: r.trigger,
  branch: r.branch,
  status: r.status,
  commitSha: r.commit_sha,
  commitMessage: r.commit_message,
  commitAuthor: r.commit_author,
  filesChanged: r.files_changed ? (JSON.parse(r.files_changed) as FilesChanged) : null,
  version: r.version,
  previewHost: r.preview_host,
  summary: r.summary,
  logs: JSON.parse(r.logs) as string[],
  createdAt: r.created_at,
  startedAt: r.started_at,
  endedAt: r.ended_at,
  durationMs: r.duration_ms,
  stages: r.stages ? (JSON.parse(r.stages) as PublishStages) : null,
});

/** Lines of a record's `logs` kept (the first ones: a failure's file:line list comes first). */
const MAX_LOG_LINES = 200;

export interface PublishOutcome {
  commitSha?: string | null;
  commitMessage?: string | null;
  commitAuthor?: string | null;
  filesChanged?: FilesChanged | null;
  version?: string | null;
}

export interface PreviewRow {
  host: string;
  projectId: string;
  branch: string;
  dir: string;
  version: string;
  expiresAt: string;
}

export function createPublishStore(db: Db, now: () => Date) {
  const insert = db.prepare(
    `INSERT INTO publishes (id, project_id, kind, trigger, branch, status, preview_host, version, created_at)
     VALUES (@id, @projectId, @kind, @trigger, @branch, 'queued', @previewHost, @version, @createdAt)`,
  );
  const get = db.prepare<[string], Row>('SELECT * FROM publishes WHERE id = ?');
  const byProject = db.prepare<[string, number], Row>('SELECT * FROM publishes WHERE project_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?');
  const unfinished = db.prepare<[], Row>("SELECT * FROM publishes WHERE status IN ('queued', 'in_progress') ORDER BY created_at");
  const lastSuccess = db.prepare<[string], Row>("SELECT * FROM publishes WHERE project_id = ? AND kind IN ('publish', 'rollback') AND status = 'success' ORDER BY ended_at DESC, rowid DESC LIMIT 1");
  const start = db.prepare("UPDATE publishes SET status = 'in_progress', started_at = ? WHERE id = ? AND status = 'queued'");
  const setCommit = db.prepare('UPDATE publishes SET commit_sha = @commitSha, commit_message = @commitMessage, commit_author = @commitAuthor, files_changed = @filesChanged, version = COALESCE(@version, version) WHERE id = @id');
  const appendLog = db.prepare('UPDATE publishes SET logs = json_insert(logs, \'$[#]\', ?) WHERE id = ? AND json_array_length(logs) < ?');
  const finish = db.prepare('UPDATE publishes SET status = @status, summary = @summary, ended_at = @endedAt, duration_ms = @durationMs WHERE id = @id');
  const setStages = db.prepare('UPDATE publishes SET stages = ? WHERE id = ?');
  const seenDelivery = db.prepare('INSERT OR IGNORE INTO webhook_deliveries (project_id, delivery_id, received_at) VALUES (?, ?, ?)');
  const forgetDeliveries = db.prepare('DELETE FROM webhook_deliveries WHERE received_at < ?');
  const upsertPreview = db.prepare(
    `INSERT INTO previews (host, project_id, branch, dir, version, expires_at) VALUES (@host, @projectId, @branch, @dir, @version, @expiresAt)
     ON CONFLICT(host) DO UPDATE SET project_id = excluded.project_id, branch = excluded.branch, dir = excluded.dir, version = excluded.version, expires_at = excluded.expires_at`,
  );
  const allPreviews = db.prepare<[], { host: string; project_id: string; branch: string; dir: string; version: string; expires_at: string }>('SELECT * FROM previews ORDER BY host');
  const deletePreview = db.prepare('DELETE FROM previews WHERE host = ?');

  const setOutcome = (id: string, o: PublishOutcome) =>
    setCommit.run({
      id,
      commitSha: o.commitSha ?? null,
      commitMessage: o.commitMessage ?? null,
      commitAuthor: o.commitAuthor ?? null,
      filesChanged: o.filesChanged ? JSON.stringify(o.filesChanged) : null,
      version: o.version ?? null,
    });

  return {
    create(input: { projectId: string; kind: PublishKind; trigger: PublishTrigger; branch?: string | null; previewHost?: string | null; version?: string | null }): PublishRecord {
      // 24 hex characters, like the hosted platform's status ids.
      const id = crypto.randomBytes(12).toString('hex');
      insert.run({ id, projectId: input.projectId, kind: input.kind, trigger: input.trigger, branch: input.branch ?? null, previewHost: input.previewHost ?? null, version: input.version ?? null, createdAt: now().toISOString() });
      return toRecord(get.get(id)!);
    },
    get(id: string): PublishRecord | undefined {
      const row = get.get(id);
      return row && toRecord(row);
    },
    listForProject(projectId: string, limit = 50): PublishRecord[] {
      return byProject.all(projectId, limit).map(toRecord);
    },
    unfinished(): PublishRecord[] {
      return unfinished.all().map(toRecord);
    },
    /** The last publish or rollback that made the project's site what it is. */
    lastSuccess(projectId: string): PublishRecord | undefined {
      const row = lastSuccess.get(projectId);
      return row && toRecord(row);
    },
    start(id: string): void {
      start.run(now().toISOString(), id);
    },
    setOutcome,
    log(id: string, line: string): void {
      appendLog.run(line, id, MAX_LOG_LINES);
    },
    setStages(id: string, stages: PublishStages): void {
      setStages.run(JSON.stringify(stages), id);
    },
    finish(id: string, status: FinishedPublishStatus, summary: string, startedMs: number): void {
      const ended = now();
      finish.run({ id, status, summary, endedAt: ended.toISOString(), durationMs: Math.max(0, Math.round(performance.now() - startedMs)) });
    },
    /** True the first time a delivery id is seen for the project (replay protection). */
    firstDelivery(projectId: string, deliveryId: string): boolean {
      return seenDelivery.run(projectId, deliveryId, now().toISOString()).changes === 1;
    },
    forgetDeliveriesBefore(at: Date): number {
      return forgetDeliveries.run(at.toISOString()).changes;
    },
    savePreview(p: PreviewRow): void {
      upsertPreview.run(p);
    },
    previews(): PreviewRow[] {
      return allPreviews.all().map((r) => ({ host: r.host, projectId: r.project_id, branch: r.branch, dir: r.dir, version: r.version, expiresAt: r.expires_at }));
    },
    deletePreview(host: string): void {
      deletePreview.run(host);
    },
  };
}

export type PublishStore = ReturnType<typeof createPublishStore>;
