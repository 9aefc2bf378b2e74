import crypto from 'node:crypto';
import fs from 'node:fs';
import { Router } from 'express';
import { agentJobArchivable, type AgentJobRecord } from '../../../data/stores/agent-jobs.js';
import { exportJobFinished, type ExportJob } from '../../../data/stores/export-jobs.js';
import type { AppContext } from '../../context.js';
import { ApiError, errors } from '../../errors.js';
import type { StaticExportFeature } from '../../static-export/feature.js';
import { checkQueueRoom } from '../../static-export/routes.js';
import { signBundleLink } from '../../static-export/signed-link.js';
import { audit, actorOf } from '../audit.js';
import { withNotice } from '../notices.js';
import { requireWrite } from '../guards.js';
import { renderPage } from '../render.js';
import type { ConsoleDeps } from '../router.js';
import { timeCell } from '../time.js';
import { SERVED_FROM_LABEL, servedVersion } from '../served.js';
import type { Project } from '../../../data/stores/projects.js';
import type { ListedWarning } from '../../loader/render-warnings.js';
import type { ConsoleReaderSession, PublishRecord } from '../services.js';
import { arraySource, buildTable, tableCsv, type TableSpec } from '../table.js';
import { sendCsv } from './csv.js';
import { automationTables, createAutomationActionsRouter } from './automations.js';

export type ConsoleExports = Pick<StaticExportFeature, 'queue' | 'files' | 'settings'>;

/** Messages of a transcript shown on a job's page (the first ones); the rest are counted. */
const TRANSCRIPT_SHOWN = 500;

/** Export jobs listed on a project page (the newest). */
const EXPORTS_LISTED = 500;

/**
 * A project: its publish section (when a publish service is wired in), export jobs with live
 * progress, agent jobs with their transcript and the archive action. Every action applies the
 * API's rules: the enterprise plan for exports, the write role for changes, the queue limits.
 */
export function createProjectRouter(ctx: AppContext, deps: ConsoleDeps): Router {
  const router = Router({ mergeParams: true });
  const baseOf = (orgId: string, projectId: string) => `/console/orgs/${encodeURIComponent(orgId)}/projects/${projectId}`;

  router.get('/', (req, res) => {
    const { org, project } = res.locals;
    const base = baseOf(org.id, project.id);
    const write = res.locals.role === 'write';
    const now = ctx.clock.now();
    const exportsSpec: TableSpec<ExportJob> = {
      id: 'exports',
      caption: 'Export jobs',
      empty: write ? 'No exports yet. “Start an export” above builds a bundle of this project; scripts use POST /v1/static-export/jobs.' : 'No exports yet. A key with the write role can start one here or with POST /v1/static-export/jobs.',
      defaultSort: 'created',
      defaultDir: 'desc',
      pageSize: 10,
      source: arraySource(ctx.stores.exportJobs.listForProject(project.id, EXPORTS_LISTED)),
      columns: [
        { key: 'id', label: 'Job', value: (j) => j.id, cell: (j) => ({ code: j.id }) },
        { key: 'status', label: 'Status', value: (j) => j.status },
        { key: 'progress', label: 'Progress', numeric: true, value: (j) => j.progress, cell: (j) => ({ progress: j.progress, jobId: j.id, done: exportJobFinished(j.status) }) },
        { key: 'pages', label: 'Pages', numeric: true, value: (j) => j.pageCount },
        { key: 'version', label: 'Version', value: (j) => j.version },
        // The bundle's render warnings (broken links, missing assets…), by kind: the job's status has the list.
        { key: 'warnings', label: 'Warnings', value: (j) => j.warnings?.warningCount ?? null, cell: (j) => exportWarningsCell(j) },
        { key: 'created', label: 'Started', value: (j) => j.createdAt, cell: (j) => timeCell(j.createdAt, now) },
        { key: 'error', label: 'Error', value: (j) => j.error },
        ...(write
          ? [
              {
                key: 'bundle',
                label: 'Bundle',
                csv: false,
                sortable: false,
                value: () => null,
                cell: (j: ExportJob) => (j.status === 'completed' && !j.filesDeletedAt ? { action: `${base}/exports/${j.id}/bundle`, text: 'Download', label: `Download ${j.id}` } : null),
              },
            ]
          : []),
      ],
    };
    const agentSpec: TableSpec<AgentJobRecord> = {
      id: 'agent',
      caption: 'Agent jobs',
      empty: 'No agent jobs yet. They are started through the API (POST /v2/agent/{projectId}/job) and listed here with their transcript.',
      defaultSort: 'created',
      defaultDir: 'desc',
      pageSize: 10,
      source: arraySource(ctx.stores.agentJobs.list(project.id)),
      columns: [
        { key: 'id', label: 'Job', value: (j) => j.id, cell: (j) => ({ link: `${base}/agent/${j.id}`, text: j.id }) },
        { key: 'title', label: 'Prompt', value: (j) => j.title },
        { key: 'status', label: 'Status', value: (j) => (j.status === 'active' ? `active (${j.runState ?? 'idle'})` : j.status) },
        { key: 'pr', label: 'Pull request', value: (j) => j.prLink, cell: (j) => (j.prLink && /^https?:\/\//.test(j.prLink) ? { link: j.prLink, text: j.prLink } : j.prLink) },
        { key: 'created', label: 'Created', value: (j) => j.createdAt, cell: (j) => timeCell(j.createdAt, now) },
        ...(write
          ? [
              {
                key: 'archive',
                label: 'Archive',
                csv: false,
                sortable: false,
                value: () => null,
                cell: (j: AgentJobRecord) => (agentJobArchivable(j.status) ? { action: `${base}/agent/${j.id}/archive`, text: 'Archive', label: `Archive ${j.id}` } : null),
              },
            ]
          : []),
      ],
    };
    const publishes = deps.publish ? deps.publish.history(project, 50) : null;
    const publishSpec: TableSpec<PublishRecord> | null = publishes
      ? {
          id: 'publishes',
          caption: 'Publish history',
          empty: write ? 'Nothing published yet. “Publish now” builds the project’s source and serves it; a push webhook or the update API does the same.' : 'Nothing published yet.',
          defaultSort: 'started',
          defaultDir: 'desc',
          pageSize: 10,
          source: arraySource(publishes),
          columns: [
            { key: 'id', label: 'Publish', value: (p) => p.id, cell: (p) => ({ code: p.id }) },
            { key: 'status', label: 'Status', value: (p) => p.status },
            { key: 'commit', label: 'Source commit', value: (p) => p.commit, cell: (p) => (p.commit ? { code: p.commit } : null) },
            { key: 'version', label: 'Version', value: (p) => p.version },
            { key: 'started', label: 'Started', value: (p) => p.startedAt, cell: (p) => timeCell(p.startedAt, now) },
            { key: 'finished', label: 'Finished', value: (p) => p.finishedAt, cell: (p) => timeCell(p.finishedAt, now) },
            { key: 'error', label: 'Error', value: (p) => p.error },
            ...(write
              ? [
                  {
                    key: 'rollback',
                    label: 'Roll back',
                    csv: false,
                    sortable: false,
                    value: () => null,
                    cell: (p: PublishRecord) => (p.canRollBackTo ? { action: `${base}/publishes/${p.id}/rollback`, text: 'Roll back', label: `Roll back to ${p.id}` } : null),
                  },
                ]
              : []),
          ],
        }
      : null;
    const warned = deps.publish?.servedWarnings(project);
    const warningsSpec: TableSpec<ListedWarning> | null = warned
      ? {
          id: 'warnings',
          caption: `Render warnings of the served version: ${warned.warningCount === 0 ? 'none' : warningKinds(warned.warningsByKind)}${warned.warningCount > warned.warnings.length ? ` (the first ${warned.warnings.length} listed)` : ''}`,
          empty: 'No warnings: every link, asset and redirect of the served version resolved.',
          defaultSort: 'kind',
          defaultDir: 'asc',
          pageSize: 20,
          source: arraySource(warned.warnings),
          columns: [
            { key: 'kind', label: 'Kind', value: (w) => w.code },
            { key: 'file', label: 'File', value: (w) => `${w.file}${w.line ? `:${w.line}` : ''}`, cell: (w) => ({ code: `${w.file}${w.line ? `:${w.line}` : ''}` }) },
            { key: 'message', label: 'Warning', value: (w) => w.message },
            { key: 'page', label: 'Page', value: (w) => w.page ?? null, cell: (w) => (w.page ? { link: `${ctx.config.publish.previewScheme}://${project.domain}${w.page}`, text: w.page } : null) },
          ],
        }
      : null;
    const automations = automationTables(ctx, deps, project, base, write, now);
    const readers = readerAccessSection(deps, project, base, write, now);
    for (const spec of [exportsSpec, agentSpec, ...(publishSpec ? [publishSpec] : []), ...(warningsSpec ? [warningsSpec] : []), ...(automations ? [automations.automations, automations.runs] : []), ...(readers?.sessions ? [readers.sessions] : [])] as TableSpec<unknown>[]) {
      if (req.query.csv === spec.id) return sendCsv(res, `${project.id}-${spec.id}.csv`, tableCsv(spec, req.query));
    }
    renderPage(res, 'project', {
      title: `${project.name} — ${org.name}`,
      section: 'project',
      base,
      exportsTable: buildTable(exportsSpec, req.query, base),
      agentTable: buildTable(agentSpec, req.query, base),
      publishTable: publishSpec ? buildTable(publishSpec, req.query, base) : null,
      warningsTable: warningsSpec ? buildTable(warningsSpec, req.query, base) : null,
      automationsTable: automations ? buildTable(automations.automations, req.query, base) : null,
      automationRunsTable: automations ? buildTable(automations.runs, req.query, base) : null,
      exportAllowed: org.plan === 'enterprise',
      exportsAvailable: deps.exports !== undefined,
      served: servedLine(project, deps, now),
      readerAccess: readers ? { method: readers.method, pages: readers.pages, sessionsTable: readers.sessions ? buildTable(readers.sessions, req.query, base) : null } : null,
    });
  });

  /** Short polling of progress by the page's script (the console's only script). */
  router.get('/exports.json', (_req, res) => {
    const jobs = ctx.stores.exportJobs.listForProject(res.locals.project.id, EXPORTS_LISTED);
    res.json({ jobs: jobs.map((j) => ({ jobId: j.id, status: j.status, progress: j.progress, done: exportJobFinished(j.status) })) });
  });

  router.post('/exports', requireWrite(), (req, res) => {
    const { org, project } = res.locals;
    if (org.plan !== 'enterprise') throw errors.planRequired('enterprise', 'Static export');
    const exp = deps.exports;
    if (!exp) throw new ApiError(503, 'EXPORT_UNAVAILABLE', 'Static export is not running on this appliance');
    checkQueueRoom(ctx.stores.exportJobs, exp.settings, org.id);
    const job = ctx.stores.exportJobs.create({ id: `se_${crypto.randomBytes(8).toString('hex')}`, orgId: org.id, projectId: project.id, domain: project.domain });
    audit(ctx.stores, ctx.log, req, org.id, 'export.start', job.id, { projectId: project.id });
    exp.queue.poke();
    res.redirect(303, withNotice(baseOf(org.id, project.id), 'export-started'));
  });

  /** A signed link, as POST …/bundle gives API clients: the write role, like that operation's write scope. */
  router.post('/exports/:jobId/bundle', requireWrite(), (req, res) => {
    const { org, project } = res.locals;
    if (org.plan !== 'enterprise') throw errors.planRequired('enterprise', 'Static export');
    const exp = deps.exports;
    const job = ctx.stores.exportJobs.getForOrg(String(req.params.jobId), org.id);
    if (!exp || !job || job.projectId !== project.id) throw errors.jobNotFound();
    if (job.status !== 'completed') throw errors.conflict('EXPORT_NOT_COMPLETED', `Job ${job.id} has no bundle: it is ${job.status}`);
    if (job.filesDeletedAt || !fs.existsSync(exp.files.tarGz(job.id))) {
      throw errors.conflict('EXPORT_REMOVED', `The export of job ${job.id} was removed by the retention policy, or predates tar.gz bundles; start a new export`);
    }
    const link = signBundleLink(ctx.secrets, job.id, ctx.clock.now(), exp.settings.linkTtlSeconds, 'tar.gz');
    res.redirect(303, link.pathAndQuery);
  });

  router.get('/agent/:jobId', (req, res) => {
    const { org, project } = res.locals;
    const job = ctx.stores.agentJobs.getForProject(String(req.params.jobId), project.id);
    if (!job) throw errors.jobNotFound();
    const messages = ctx.stores.agentJobs.messagesAfter(job.id, 0);
    const now = ctx.clock.now();
    const transcript = messages.slice(0, TRANSCRIPT_SHOWN).map((m) => ({ seq: m.seq, turn: m.turn, role: m.role, at: timeCell(m.createdAt, now), text: messageText(m.body) }));
    renderPage(res, 'agent-job', {
      created: timeCell(job.createdAt, now),
      title: `Agent job ${job.id}`,
      section: 'project',
      base: baseOf(org.id, project.id),
      job,
      archivable: agentJobArchivable(job.status),
      archived: job.status === 'archived',
      transcript,
      more: messages.length - transcript.length,
    });
  });

  router.post('/agent/:jobId/archive', requireWrite(), (req, res) => {
    const { org, project } = res.locals;
    const job = ctx.stores.agentJobs.getForProject(String(req.params.jobId), project.id);
    if (!job) throw errors.jobNotFound();
    const result = ctx.stores.agentJobs.archive(job.id);
    if (!result.ok) {
      if (result.reason === 'active') throw errors.conflict('JOB_ACTIVE', 'The job is still running; archive it once it has finished');
      if (result.reason === 'already_archived') throw errors.conflict('JOB_ARCHIVED', 'The job is already archived');
      throw errors.jobNotFound();
    }
    audit(ctx.stores, ctx.log, req, org.id, 'agent.archive', job.id, { projectId: project.id });
    res.redirect(303, withNotice(baseOf(org.id, project.id), 'job-archived'));
  });

  router.use(createAutomationActionsRouter(ctx, deps, baseOf));

  /** Ends a reader's session (issue 40): their next request is signed out. The service audits it under who did it. */
  router.post('/reader-sessions/:sessionId/revoke', requireWrite(), (req, res) => {
    const { org, project } = res.locals;
    if (!deps.readerAccess) throw new ApiError(503, 'READER_ACCESS_UNAVAILABLE', 'Reader access is not available on this appliance');
    if (!deps.readerAccess.revoke(project, String(req.params.sessionId), actorOf(req))) {
      throw new ApiError(404, 'READER_SESSION_NOT_FOUND', 'No such live reader session in this project (it may have ended already)');
    }
    ctx.log.info({ reqId: req.id, org: org.id, project: project.id }, 'console: reader session revoked');
    res.redirect(303, withNotice(baseOf(org.id, project.id), 'reader-session-revoked'));
  });

  router.post('/publish', requireWrite(), async (req, res) => {
    const { org, project } = res.locals;
    if (!deps.publish) throw new ApiError(503, 'PUBLISH_UNAVAILABLE', 'Publishing is not available on this appliance');
    const started = await deps.publish.publishNow(project, actorOf(req));
    audit(ctx.stores, ctx.log, req, org.id, 'publish.start', started.id, { projectId: project.id });
    res.redirect(303, withNotice(baseOf(org.id, project.id), 'publish-started'));
  });

  router.post('/publishes/:publishId/rollback', requireWrite(), async (req, res) => {
    const { org, project } = res.locals;
    if (!deps.publish) throw new ApiError(503, 'PUBLISH_UNAVAILABLE', 'Publishing is not available on this appliance');
    const target = String(req.params.publishId);
    const started = await deps.publish.rollBack(project, target, actorOf(req));
    audit(ctx.stores, ctx.log, req, org.id, 'publish.rollback', started.id, { projectId: project.id, to: target });
    res.redirect(303, withNotice(baseOf(org.id, project.id), 'rolled-back'));
  });

  return router;
}

/** A chat message as plain text for the transcript (tool calls shown by name and arguments). */
function messageText(body: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof body.content === 'string') parts.push(body.content);
  if (Array.isArray(body.tool_calls)) {
    for (const call of body.tool_calls as { function?: { name?: string; arguments?: string } }[]) {
      parts.push(`→ ${call.function?.name ?? 'tool'}(${(call.function?.arguments ?? '').slice(0, 2000)})`);
    }
  }
  const text = parts.join('\n');
  return text.length > 20_000 ? `${text.slice(0, 20_000)}\n… (cut: ${text.length} characters)` : text;
}

/**
 * The reader-access section: the method (or public), what the served bundle was rendered with, and
 * the live sessions with a Revoke button for the write role. Null without the service.
 */
function readerAccessSection(deps: ConsoleDeps, project: Project, base: string, write: boolean, now: Date) {
  const ra = deps.readerAccess;
  if (!ra) return null;
  const method = ra.method(project);
  const served = ra.served(project);
  // Without auth and without a map there is nothing to count: every page is public.
  const pages: { kind: 'counts'; public: number; signedIn: number; groups: number } | { kind: 'unreadable' | 'not-rendered' | 'not-served' | 'public' } =
    served?.rendered ? (served.pages ? { kind: 'counts', ...served.pages } : { kind: 'unreadable' }) : !method ? { kind: 'public' } : served ? { kind: 'not-rendered' } : { kind: 'not-served' };
  const sessions: TableSpec<ConsoleReaderSession> | null = method
    ? {
        id: 'reader-sessions',
        caption: 'Active reader sessions',
        empty: 'No reader is signed in.',
        defaultSort: 'lastSeen',
        defaultDir: 'desc',
        pageSize: 20,
        source: arraySource(ra.sessions(project)),
        columns: [
          { key: 'created', label: 'Signed in', value: (s) => s.createdAt, cell: (s) => timeCell(s.createdAt, now) },
          { key: 'lastSeen', label: 'Last seen', value: (s) => s.lastSeenAt, cell: (s) => timeCell(s.lastSeenAt, now) },
          { key: 'expires', label: 'Expires', value: (s) => s.expiresAt, cell: (s) => timeCell(s.expiresAt, now) },
          { key: 'method', label: 'Method', value: (s) => s.method },
          { key: 'groups', label: 'Groups', value: (s) => (s.groups.length ? s.groups.join(', ') : null) },
          ...(write
            ? [
                {
                  key: 'revoke',
                  label: 'Revoke',
                  csv: false,
                  sortable: false,
                  value: () => null,
                  // The listed id is a hash of the cookie's session id: its prefix names the row for the button, not the reader.
                  cell: (s: ConsoleReaderSession) => ({ action: `${base}/reader-sessions/${s.id}/revoke`, text: 'Revoke', label: `Revoke session ${s.id.slice(0, 12)}`, danger: true }),
                },
              ]
            : []),
        ],
      }
    : null;
  return { method: method ?? 'public', pages, sessions };
}

/** "none", or the count and its kinds ("3: 2 broken-link, 1 missing-asset"); nothing for jobs without a bundle. */
function exportWarningsCell(j: ExportJob): string | null {
  const w = j.warnings;
  if (!w) return null;
  if (w.warningCount === 0) return 'none';
  return `${w.warningCount}: ${warningKinds(w.warningsByKind)}`;
}

/** What this project's domain serves now and for how long, for the page's header. */
function servedLine(project: Project, deps: ConsoleDeps, now: Date): { version: string; from: string; age: ReturnType<typeof timeCell> } | null {
  const served = servedVersion(project, deps);
  return served ? { version: served.version, from: SERVED_FROM_LABEL[served.from], age: timeCell(served.since, now) } : null;
}

/** "2 broken-link, 1 missing-asset": counts by kind, as the warnings caption and the export table say them. */
function warningKinds(byKind: Record<string, number>): string {
  return Object.entries(byKind).map(([code, n]) => `${n} ${code}`).join(', ');
}
