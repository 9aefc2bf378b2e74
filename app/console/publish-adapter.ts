import type { Project } from '../../data/stores/projects.js';
import { errors } from '../errors.js';
import { PublishRequestError, type PublishRecord as StoredRecord, type PublishService } from '../publish/index.js';
import type { ConsolePublishService, PublishRecord } from './services.js';

/**
 * The console's view of the publish service (app/publish): its history without previews, "publish
 * now" and "roll back" go through the same service and lanes as the API, recorded with the
 * trigger `console` (the hosted status shows it as `dashboard`); the console's audit log names who.
 */
export function consolePublishAdapter(service: PublishService): ConsolePublishService {
  return {
    history(project: Project, limit: number): PublishRecord[] {
      const served = service.served(project.id)?.version;
      const kept = new Set(service.versions(project.id).map((v) => v.version));
      return service
        .history(project.id, limit)
        .filter((r) => r.kind !== 'preview')
        .map((r) => {
          const current = isTarget(r) && r.version === served;
          return {
            id: r.id,
            version: r.version,
            commit: r.commitSha,
            status: r.status,
            startedAt: r.startedAt ?? r.createdAt,
            finishedAt: r.endedAt,
            error: r.status === 'failure' ? r.summary : null,
            current,
            canRollBackTo: isTarget(r) && !current && kept.has(r.version),
          };
        });
    },
    served: (project: Project) => service.served(project.id),
    servedWarnings(project: Project) {
      const served = service.served(project.id)?.version;
      return served === undefined ? undefined : (service.versionWarnings(project.id, served) ?? undefined);
    },
    async publishNow(project: Project) {
      return { id: refused(() => service.publish(project.id, 'console')).id };
    },
    async rollBack(project: Project, publishId: string) {
      // The id comes from the browser: only a finished publish of this project names a version to go back to.
      const record = service.status(publishId);
      if (!record || record.projectId !== project.id || !isTarget(record)) throw errors.updateStatusNotFound();
      const version = record.version;
      return { id: refused(() => service.rollback(project.id, version, 'console')).id };
    },
  };
}

/** A finished publish or rollback of the project's site: it names a version to go back to. */
function isTarget(r: StoredRecord): r is StoredRecord & { version: string } {
  return r.kind !== 'preview' && r.status === 'success' && r.version !== null;
}

function refused<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof PublishRequestError) throw errors.publishRefused(err.message);
    throw err;
  }
}
