import { Router, type Request } from 'express';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { errors } from '../errors.js';
import { projectFor } from '../http/auth.js';
import { rateLimit } from '../http/rate-limit.js';
import { validate } from '../http/validate.js';
import { branchProblem } from './checkout.js';
import { PublishRequestError, type PublishService } from './service.js';
import { toUpdateStatus } from './status-view.js';

const branchBody = z.object({
  branch: z
    .string()
    .min(1)
    .superRefine((b, c) => {
      const problem = branchProblem(b);
      if (problem) c.addIssue({ code: 'custom', message: problem });
    }),
});
const rollbackBody = z.object({ version: z.string().min(1).max(300) });

/** The hosted documentation: "up to 5 requests per minute per organization" for previews. */
export const PREVIEWS_PER_MINUTE = 5;

/** A refusal of the service (unknown version, no repository) is the caller's to fix: 400. */
function refusing<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof PublishRequestError) throw errors.publishRefused(err.message);
    throw err;
  }
}

/**
 * The hosted update operations (`/v1/project/update/{projectId}`, `/v1/project/update-status/{statusId}`,
 * `/v1/project/preview/{projectId}`) and the appliance's rollback and versions, behind admin keys.
 * Publishing is on every plan; previews need enterprise, as on the hosted platform.
 */
export function createPublishRouter(ctx: AppContext, service: PublishService): Router {
  const router = Router();
  const domainOf = (projectId: string) => ctx.stores.projects.get(projectId)?.domain ?? '';

  router.post('/v1/project/update/:projectId', (req, res) => {
    const project = projectFor(req, ctx.stores, String(req.params.projectId));
    const record = refusing(() => service.publish(project.id, 'api'));
    res.status(202).json({ statusId: record.id });
  });

  router.get('/v1/project/update-status/:statusId', (req, res) => {
    const record = service.status(String(req.params.statusId));
    if (!record || ctx.stores.projects.get(record.projectId)?.orgId !== req.auth?.org.id) throw errors.updateStatusNotFound();
    res.json(toUpdateStatus(record, domainOf(record.projectId), service.previewUrl, service.warningsOf(record)));
  });

  router.post(
    '/v1/project/preview/:projectId',
    (req, _res, next) => {
      projectFor(req, ctx.stores, String(req.params.projectId));
      if (req.auth!.org.plan !== 'enterprise') throw errors.planRequired('enterprise', 'Preview deployments');
      next();
    },
    rateLimit({ store: ctx.stores.rateLimits, key: (r: Request) => `preview:${r.auth!.org.id}`, limit: PREVIEWS_PER_MINUTE, windowMs: 60_000 }),
    (req, res) => {
      const { branch } = validate(branchBody, req.body, 'body');
      const { record, previewUrl } = refusing(() => service.preview(String(req.params.projectId), branch, 'api'));
      res.status(202).json({ statusId: record.id, previewUrl });
    },
  );

  router.post('/v1/project/rollback/:projectId', (req, res) => {
    const project = projectFor(req, ctx.stores, String(req.params.projectId));
    const { version } = validate(rollbackBody, req.body, 'body');
    const record = refusing(() => service.rollback(project.id, version, 'api'));
    res.status(202).json({ statusId: record.id });
  });

  router.get('/v1/project/versions/:projectId', (req, res) => {
    const project = projectFor(req, ctx.stores, String(req.params.projectId));
    res.json({ projectId: project.id, domain: project.domain, versions: service.versions(project.id), previews: service.previews(project.id).map((p) => ({ ...p, previewUrl: service.previewUrl(p.host) })) });
  });

  return router;
}
