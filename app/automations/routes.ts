import { Router, type Request, type RequestHandler } from 'express';
import type { AutomationConfig } from '../../config/automations.js';
import type { Config } from '../../config/schema.js';
import type { AppContext } from '../context.js';
import { errors } from '../errors.js';
import { projectFor } from '../http/auth.js';
import { rateLimit } from '../http/rate-limit.js';
import type { RunStarter } from './start-run.js';

/** The hosted documentation: "up to 10 requests per 10 seconds per organization". */
export const TRIGGERS_PER_WINDOW = 10;
export const TRIGGER_WINDOW_MS = 10_000;
const AUTOMATION_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The automation of a configured project, by its id (the hosted workflowSchemaId). */
export const automationOf = (config: Readonly<Config>, projectId: string, id: string): AutomationConfig | undefined =>
  config.projects.find((p) => p.id === projectId)?.automations.find((a) => a.id === id);

/**
 * `POST /v1/workflow/{projectId}/{workflowSchemaId}/trigger` as published: 202 with schemaId,
 * instanceId and jobId; 400 for a malformed id, a disabled automation or one triggered by pushes
 * (the hosted operation takes custom-schedule automations; an `api` automation is one with no
 * schedule of its own); 404 for an unknown project or automation. Behind the admin key (write).
 */
export function createAutomationRouter(ctx: AppContext, deps: { config(): Readonly<Config>; start: RunStarter }): Router {
  const router = Router();
  const loadProject: RequestHandler = (req, res, next) => {
    res.locals.automationProject = projectFor(req, ctx.stores, String(req.params.projectId));
    next();
  };
  const limiter = rateLimit({ store: ctx.stores.rateLimits, key: (r: Request) => `workflow-trigger:${r.auth!.org.id}`, limit: TRIGGERS_PER_WINDOW, windowMs: TRIGGER_WINDOW_MS });

  router.post('/v1/workflow/:projectId/:workflowSchemaId/trigger', loadProject, limiter, async (req, res) => {
    const project = res.locals.automationProject!;
    const id = String(req.params.workflowSchemaId);
    if (!AUTOMATION_ID.test(id)) throw errors.automationNotTriggerable('Invalid automation id: 1-64 letters, digits, "_" or "-"');
    const automation = automationOf(deps.config(), project.id, id);
    if (!automation) throw errors.automationNotFound();
    if (!automation.enabled) throw errors.automationNotTriggerable(`Automation ${id} is not active (projects[].automations[].enabled is false)`);
    if (automation.trigger.type === 'push') {
      throw errors.automationNotTriggerable(`Automation ${id} is not configured with a custom schedule: it runs on pushes to a repository (trigger.type "push"), and only scheduled automations can be triggered`);
    }
    const { run, job } = await deps.start(project, automation, 'api');
    res.status(202).json({ schemaId: automation.id, instanceId: run.id, jobId: job.id });
  });
  return router;
}

declare module 'express-serve-static-core' {
  interface Locals {
    automationProject?: import('../../data/stores/projects.js').Project;
  }
}
