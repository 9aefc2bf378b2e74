import { Router } from 'express';
import type { Project } from '../../../data/stores/projects.js';
import type { AppContext } from '../../context.js';
import { renderPage } from '../render.js';
import { SERVED_FROM_LABEL, servedVersion, type ServedVersion } from '../served.js';
import { arraySource, buildTable, tableCsv, type TableSpec } from '../table.js';
import type { ConsoleDeps } from '../router.js';
import { relativeTime, timeCell } from '../time.js';
import { sendCsv } from './csv.js';

interface ProjectRow {
  project: Project;
  served: ServedVersion | undefined;
  lastPublish: { status: string; at: string } | null;
}

/** The organization's overview: projects, what is served and since when, loader health, last publishes. */
export function createOverviewRouter(ctx: AppContext, deps: ConsoleDeps): Router {
  const router = Router({ mergeParams: true });
  router.get('/', (req, res) => {
    const org = res.locals.org;
    const projects = ctx.stores.projects.list().filter((p) => p.orgId === org.id);
    const rows: ProjectRow[] = projects.map((p) => {
      const last = deps.publish?.history(p, 1)[0];
      return { project: p, served: servedVersion(p, deps), lastPublish: last ? { status: last.status, at: last.finishedAt ?? last.startedAt } : null };
    });
    const base = `/console/orgs/${encodeURIComponent(org.id)}`;
    const now = ctx.clock.now();
    const spec: TableSpec<ProjectRow> = {
      id: 'projects',
      caption: 'Projects',
      empty: 'This organization has no projects. Add one to the config file’s "projects" list (docs/configuration.md) and send the appliance SIGHUP or restart it.',
      defaultSort: 'name',
      defaultDir: 'asc',
      source: arraySource(rows),
      columns: [
        { key: 'name', label: 'Project', value: (r) => r.project.name, cell: (r) => ({ link: `${base}/projects/${r.project.id}`, text: r.project.name }) },
        { key: 'id', label: 'Id', value: (r) => r.project.id, cell: (r) => ({ code: r.project.id }) },
        { key: 'domain', label: 'Domain', value: (r) => r.project.domain },
        { key: 'served', label: 'Served version', value: (r) => r.served?.version ?? '—' },
        { key: 'since', label: 'Served since', value: (r) => r.served?.since ?? null, cell: (r) => timeCell(r.served?.since, now) },
        { key: 'from', label: 'Served from', value: (r) => (r.served ? SERVED_FROM_LABEL[r.served.from] : null) },
        ...(deps.publish
          ? [
              {
                key: 'publish',
                label: 'Last publish',
                value: (r: ProjectRow) => (r.lastPublish ? `${r.lastPublish.status} ${r.lastPublish.at}` : null),
                cell: (r: ProjectRow) => (r.lastPublish ? `${r.lastPublish.status}, ${relativeTime(r.lastPublish.at, now)}` : null),
              },
            ]
          : []),
      ],
    };
    if (req.query.csv === spec.id) return sendCsv(res, `${org.id}-projects.csv`, tableCsv(spec, req.query));
    // The loader serves one single-site bundle: another organization's, and the loader's state
    // while it serves it, are not this organization's to see.
    const single = deps.site?.loader.active;
    const mine = single !== undefined && projects.some((p) => p.id === single.projectId);
    const status = single && !mine ? undefined : deps.site?.loader.status;
    const loader = status
      ? {
          phase: status.phase,
          ok: !status.lastError,
          lastError: status.lastError ?? null,
          nextRetryAt: status.nextRetryAt ? timeCell(status.nextRetryAt.toISOString(), now) : null,
        }
      : null;
    renderPage(res, 'overview', {
      title: `${org.name} — overview`,
      section: 'overview',
      table: buildTable(spec, req.query, base),
      loader,
      served: rows.flatMap((r) => (r.served ? [{ name: r.project.name, ...r.served, from: SERVED_FROM_LABEL[r.served.from], age: r.served.since ? timeCell(r.served.since, now) : null }] : [])),
      loaderHidden: single !== undefined && !mine,
      publishAvailable: deps.publish !== undefined,
    });
  });
  return router;
}
