import crypto from 'node:crypto';
import fs from 'node:fs';
import { Router, type Request } from 'express';
import type { ExportJob } from '../../data/stores/export-jobs.js';
import type { AppContext } from '../context.js';
import { errors } from '../errors.js';
import { requestOrigin } from '../http/request-origin.js';
import { validate } from '../http/validate.js';
import type { ExportFiles } from './files.js';
import { jobView } from './job-view.js';
import type { ExportQueue } from './queue.js';
import { bundleBody, JOB_ID_PATTERN, startExportBody, unknownFields } from './request-body.js';
import { signBundleLink } from './signed-link.js';

/** The settings SIGHUP may change; read on every request. */
export interface ExportSettings {
  linkTtlSeconds: number;
  retentionDays: number;
  maxQueuedJobsPerOrg: number;
  maxQueuedJobs: number;
}

/** Retry-After of a full export queue: about what one export takes to free a place. */
export const QUEUE_FULL_RETRY_AFTER_S = 60;

/** The three operations of DESIGN 3.4, behind admin-key auth. */
export function createStaticExportRouter(ctx: AppContext, deps: { queue: ExportQueue; files: ExportFiles; settings: ExportSettings }): Router {
  const { queue, files, settings } = deps;
  const store = ctx.stores.exportJobs;
  const router = Router();

  /** Static export is an enterprise feature; checked before anything else is looked at. */
  const orgIdFor = (req: Request): string => {
    const org = req.auth!.org;
    if (org.plan !== 'enterprise') throw errors.planRequired('enterprise', 'Static export');
    return org.id;
  };

  const jobFor = (req: Request, orgId: string): ExportJob => {
    const jobId = String(req.params.jobId);
    const job = JOB_ID_PATTERN.test(jobId) ? store.getForOrg(jobId, orgId) : undefined;
    if (!job) throw errors.jobNotFound();
    return job;
  };

  const ensureQueueRoom = (orgId: string): void => checkQueueRoom(store, settings, orgId);

  router.post('/v1/static-export/jobs', async (req, res) => {
    const orgId = orgIdFor(req);
    const body = validate(startExportBody, req.body, 'body');
    const ignored = unknownFields(req.body, Object.keys(startExportBody.shape));
    if (ignored.length) ctx.log.info({ reqId: req.id, ignored }, 'static export request: unknown body fields ignored');
    const project = ctx.stores.projects.getByDomain(body.domain);
    if (!project || project.orgId !== orgId) {
      throw errors.badRequest(`Invalid body: domain: no project of your organization has the domain "${body.domain}"`);
    }
    if (project.sourceDir === null) throw errors.noSourceDir(body.domain);
    // Entries that match no page are the client's mistake: a 400 now rather than a failed job
    // later. Only requests with `paths` pay for planning the site (in the export thread).
    ensureQueueRoom(orgId);
    if (body.paths) {
      const unknown = await queue.unknownPaths(project.sourceDir, body.paths);
      if (unknown.length > 0) throw errors.badRequest(`Invalid body: paths match no page: ${unknown.join(', ')}`);
    }
    // Again after the await above: other requests may have queued jobs meanwhile. From here to
    // the insert nothing yields, so the count and the insert cannot interleave with another request.
    ensureQueueRoom(orgId);
    const job = store.create({
      id: `se_${crypto.randomBytes(8).toString('hex')}`,
      orgId,
      projectId: project.id,
      domain: project.domain,
      requestedVersion: body.version,
      paths: body.paths,
      keepGoing: body.keepGoing,
    });
    res.status(202).json(jobView(job));
    // After answering: the response shows the job as created (queued), even if it starts at once.
    queue.poke();
  });

  router.get('/v1/static-export/jobs/:jobId', (req, res) => {
    res.json(jobView(jobFor(req, orgIdFor(req))));
  });

  router.post('/v1/static-export/jobs/:jobId/bundle', (req, res) => {
    const job = jobFor(req, orgIdFor(req));
    // No body (what the published operation sends) is the default: the tar.gz.
    const asked = req.body === undefined ? {} : validate(bundleBody, req.body, 'body');
    const format = asked.format ?? 'tar.gz';
    if (job.status !== 'completed') {
      const why = job.status === 'failed' ? 'it failed' : `it is ${job.status}`;
      throw errors.conflict('EXPORT_NOT_COMPLETED', `Job ${job.id} has no bundle: ${why}; a bundle exists once status is completed`);
    }
    if (job.filesDeletedAt || !fs.existsSync(files.bundle(job.id))) {
      if (!job.filesDeletedAt) store.markFilesDeleted(job.id);
      throw errors.conflict('EXPORT_REMOVED', `The export of job ${job.id} was removed by the retention policy (files older than ${settings.retentionDays} days are deleted); start a new export`);
    }
    if (format === 'tar.gz' && !fs.existsSync(files.tarGz(job.id))) {
      // Exports finished before bundles came as tar.gz have only the zip.
      throw errors.conflict('EXPORT_FORMAT_UNAVAILABLE', `The export of job ${job.id} has no tar.gz bundle (it predates them); send {"format": "zip"} for its zip, or start a new export`);
    }
    // The every-file twin exists only for a bundle with reader access; any other bundle already holds every page.
    const include = asked.include === 'all' && fs.existsSync(files.of(job.id, format, 'all')) ? 'all' : 'public';
    const link = signBundleLink(ctx.secrets, job.id, ctx.clock.now(), settings.linkTtlSeconds, format, include);
    res.json({
      jobId: job.id,
      bundleUrl: `${publicBase(ctx, req)}${link.pathAndQuery}`,
      sizeBytes: include === 'all' ? fs.statSync(files.of(job.id, format, 'all')).size : format === 'zip' ? (job.sizeBytes ?? fs.statSync(files.bundle(job.id)).size) : fs.statSync(files.tarGz(job.id)).size,
      expiresAt: link.expiresAt.toISOString(),
      format,
    });
  });

  return router;
}

/**
 * One organization cannot fill the queue for everyone, and the queue cannot grow without bound.
 * Shared by the API and the console (app/console), so both refuse at the same point.
 */
export function checkQueueRoom(store: AppContext['stores']['exportJobs'], settings: ExportSettings, orgId: string): void {
  const mine = store.countQueued(orgId);
  if (mine >= settings.maxQueuedJobsPerOrg) {
    throw errors.queueFull(`Your organization already has ${mine} export jobs waiting to run, the most allowed (staticExport.maxQueuedJobsPerOrg)`, QUEUE_FULL_RETRY_AFTER_S);
  }
  const all = store.countQueued();
  if (all >= settings.maxQueuedJobs) {
    throw errors.queueFull(`The appliance already has ${all} export jobs waiting to run, the most allowed (staticExport.maxQueuedJobs)`, QUEUE_FULL_RETRY_AFTER_S);
  }
}

/** `admin.publicUrl` when configured (behind a proxy), else what the client used to reach us. */
function publicBase(ctx: AppContext, req: Request): string {
  const configured = ctx.config.admin.publicUrl;
  if (configured) return configured.replace(/\/+$/, '');
  return requestOrigin(req, `localhost:${ctx.config.admin.port}`);
}
