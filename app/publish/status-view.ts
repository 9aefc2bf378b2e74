import type { WarningSummary } from '../loader/render-warnings.js';
import type { PublishRecord, PublishTrigger } from '../../data/stores/publishes.js';

/** The hosted `source` values; the appliance's exact trigger is in `trigger`. */
export const HOSTED_SOURCES = ['internal', 'api', 'github', 'gitlab', 'dashboard'] as const;
export type HostedSource = (typeof HOSTED_SOURCES)[number];

/** Each trigger's hosted name: a trigger added without one fails the type check. */
const SOURCE: Record<PublishTrigger, HostedSource> = {
  api: 'api',
  console: 'dashboard',
  cli: 'internal',
  poll: 'internal',
  'webhook:github': 'github',
  'webhook:gitlab': 'gitlab',
  'webhook:gitea': 'internal',
};

/**
 * A publish record as `GET /v1/project/update-status/{statusId}` answers it: the hosted fields
 * (`_id`, `projectId`, `createdAt`, `endedAt`, `status`, `summary`, `logs`, `subdomain`, `author`,
 * `commit`, `source`) plus the appliance's own (`kind`, `trigger`, `branch`, `version`,
 * `durationMs`, `stages`, `previewUrl`, and for a finished publish whose version is kept `warningCount`,
 * `warningsByKind`, `warnings`). `endedAt` is left out until the work has ended.
 */
export function toUpdateStatus(r: PublishRecord, domain: string, previewUrl: (host: string) => string, warnings?: WarningSummary) {
  return {
    _id: r.id,
    projectId: r.projectId,
    createdAt: r.createdAt,
    ...(r.endedAt ? { endedAt: r.endedAt } : {}),
    status: r.status,
    summary: r.summary ?? (r.status === 'queued' ? 'Queued' : 'In progress'),
    logs: r.logs,
    subdomain: r.previewHost ?? domain,
    author: r.commitAuthor ? { name: r.commitAuthor } : null,
    ...(r.commitSha
      ? {
          commit: {
            sha: r.commitSha,
            ...(r.branch ? { ref: `refs/heads/${r.branch}` } : {}),
            ...(r.commitMessage !== null ? { message: r.commitMessage } : {}),
            ...(r.filesChanged ? { filesChanged: r.filesChanged } : {}),
          },
        }
      : {}),
    // A database written by a later release may hold a trigger this one does not know.
    source: SOURCE[r.trigger] ?? 'internal',
    kind: r.kind,
    trigger: r.trigger,
    branch: r.branch,
    version: r.version,
    durationMs: r.durationMs,
    // Where the time went (issue 43): a publish's stages, once it ended.
    ...(r.stages && r.endedAt ? { stages: r.stages } : {}),
    ...(r.previewHost ? { previewUrl: previewUrl(r.previewHost) } : {}),
    // The bundle's render warnings (broken links, missing assets, blocked scripts…), once it was made.
    ...(warnings ? warnings : {}),
  };
}
