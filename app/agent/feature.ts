import { Router } from 'express';
import type { AppContext } from '../context.js';
import type { Feature } from '../feature.js';
import { projectFor } from '../http/auth.js';
import { errors } from '../errors.js';

/** Agent jobs (DESIGN 3.2). */
export function createAgentFeature(ctx: AppContext): Feature {
  const router = Router();
  router.get('/v2/agent/:projectId/job/:id', (req, _res) => {
    projectFor(req, ctx.stores, req.params.projectId);
    throw errors.jobNotFound();
  });
  return { name: 'agent', adminRouter: router };
}
