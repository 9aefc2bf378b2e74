import { Router } from 'express';
import type { Project } from '../../../data/stores/projects.js';
import type { AppContext } from '../../context.js';
import { readActive } from '../../loader/sites-dir.js';
import { renderPage } from '../render.js';
import { arraySource, buildTable, tableCsv, type TableSpec } from '../table.js';
import type { ConsoleDeps } from '../router.js';
import { sendCsv } from './csv.js';

interface ProjectRow {
  project: Project;
  served: string | null;
  since: string | null;
  lastPublish: string | null;
}

/** The organization's overview: projects, what is served and since when, loader health, last publishes. */
export function createOverviewRouter(ctx: AppContext, deps: ConsoleDeps): Router {
  const router = Router({ mergeParams: true });
  router.get('/', (req, res) => {
    const org = res.locals.org;
    const active = readActive(ctx.config.stateDir, ctx.stores.settings);
    const projects = ctx.stores.projects.list().filter((p) => p.orgId === org.id);
    const rows: ProjectRow[] = projects.map((p) => {
      const last = deps.publish?.history(p, 1)[0];
      return {
        project: p,
        served: active && active.projectId === p.id ? active.version : null,
        since: active && active.projectId === p.id && active.activatedAt ? active.activatedAt : null,
        lastPublish: last ? `${last.status} ${last.finishedAt ?? last.startedAt}` : null,
      };
    });
    const base = `/console/orgs/${encodeURIComponent(org.id)}`;
    const spec: TableSpec<ProjectRow> = {
      id: 'projects',
      caption: 'Projects',
      empty: 'This organization has no projects.',
      defaultSort: 'name',
      defaultDir: 'asc',
      source: arraySource(rows),
      columns: [
        { key: 'name', label: 'Project', value: (r) => r.project.name, cell: (r) => ({ link: `${base}/projects/${r.project.id}`, text: r.project.name }) },
        { key: 'id', label: 'Id', value: (r) => r.project.id, cell: (r) => ({ code: r.project.id }) },
        { key: 'domain', label: 'Domain', value: (r) => r.project.domain },
        { key: 'served', label: 'Served version', value: (r) => r.served ?? '—' },
        { key: 'since', label: 'Served since', value: (r) => r.since },
        ...(deps.publish ? [{ key: 'publish', label: 'Last publish', value: (r: ProjectRow) => r.lastPublish ?? '—' }] : []),
      ],
    };
    if (req.query.csv === spec.id) return sendCsv(res, `${org.id}-projects.csv`, tableCsv(spec, req.query));
    // One site is served per appliance: another organization's served site, and the loader that
    // serves it, are not this organization's to see.
    const mine = active !== undefined && projects.some((p) => p.id === active.projectId);
    const status = active && !mine ? undefined : deps.site?.loader.status;
    const loader = status
      ? {
          phase: status.phase,
          ok: !status.lastError,
          lastError: status.lastError ?? null,
          nextRetryAt: status.nextRetryAt ? status.nextRetryAt.toISOString() : null,
        }
      : null;
    renderPage(res, 'overview', {
      title: `${org.name} — overview`,
      section: 'overview',
      table: buildTable(spec, req.query, base),
      loader,
      active: mine ? { version: active.version, since: active.activatedAt || null } : null,
      loaderHidden: active !== undefined && !mine,
      publishAvailable: deps.publish !== undefined,
    });
  });
  return router;
}
