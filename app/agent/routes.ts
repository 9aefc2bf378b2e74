import { Router, type Request, type RequestHandler } from 'express';
import { z } from 'zod';
import type { Config } from '../../config/schema.js';
import type { Project } from '../../data/stores/projects.js';
import type { AppContext } from '../context.js';
import { errors } from '../errors.js';
import { projectFor } from '../http/auth.js';
import { rateLimit } from '../http/rate-limit.js';
import { validate } from '../http/validate.js';
import { toAgentJob } from './job-view.js';
import { agentNotConfigured, ensureRoom, MAX_PROMPT_CHARS, startJob } from './new-job.js';
import { createAgentV1Router } from './v1-routes.js';

const promptBody = z.object({
  prompt: z
    .string()
    .refine((s) => s.trim().length > 0, 'must not be empty')
    .refine((s) => s.length <= MAX_PROMPT_CHARS, `must be at most ${MAX_PROMPT_CHARS} characters`),
});

declare module 'express-serve-static-core' {
  interface Locals {
    agentProject?: Project;
  }
}

/** The three routes of DESIGN 3.2, and the deprecated v1 ones on top of them. */
export function createAgentRouter(ctx: AppContext, deps: { config(): Readonly<Config>; kick(): void }): Router {
  const store = ctx.stores.agentJobs;
  const router = Router();

  // The project is resolved before the limiter so unknown ids neither count nor reveal anything.
  const loadProject: RequestHandler = (req, res, next) => {
    res.locals.agentProject = projectFor(req, ctx.stores, String(req.params.projectId));
    next();
  };
  // Create and message share one bucket per project (agent.rateLimitPerHour, default 100).
  const limiter: RequestHandler = (req, res, next) =>
    rateLimit({
      store: ctx.stores.rateLimits,
      key: (r: Request) => `agent:${String(r.params.projectId)}`,
      limit: deps.config().agent.rateLimitPerHour,
      windowMs: 3600_000,
    })(req, res, next);

  router.post('/v2/agent/:projectId/job', loadProject, limiter, (req, res) => {
    const { prompt } = validate(promptBody, req.body, 'body');
    const job = startJob(ctx, deps.config(), res.locals.agentProject!, { prompt });
    deps.kick();
    res.status(201).json(toAgentJob(job));
  });

  router.get('/v2/agent/:projectId/job/:id', loadProject, (req, res) => {
    const job = store.getForProject(String(req.params.id), res.locals.agentProject!.id);
    if (!job) throw errors.jobNotFound();
    res.json(toAgentJob(job));
  });

  router.post('/v2/agent/:projectId/job/:id/message', loadProject, limiter, (req, res) => {
    const project = res.locals.agentProject!;
    const { prompt } = validate(promptBody, req.body, 'body');
    const config = deps.config();
    const notConfigured = agentNotConfigured(config, project);
    if (notConfigured) throw errors.badRequest(notConfigured);
    // A finished job made active again takes a place; a message to an active job does not.
    const current = store.getForProject(String(req.params.id), project.id);
    if (current && current.status !== 'active' && current.status !== 'archived') ensureRoom(ctx, config, project.orgId);
    const result = store.followUp(String(req.params.id), project.id, prompt, config.agent.maxTranscriptBytes);
    if (!result.ok) {
      if (result.reason === 'archived') throw errors.conflict('JOB_ARCHIVED', 'Job is archived; start a new job');
      if (result.reason === 'full') {
        ctx.log.warn({ agentJob: String(req.params.id), bytes: result.bytes, limit: 'agent.maxTranscriptBytes' }, 'agent follow-up refused: the job conversation is full');
        throw errors.conflict('JOB_CONVERSATION_FULL', `agent.maxTranscriptBytes reached: the job's conversation would be ${result.bytes} bytes; a job keeps at most ${config.agent.maxTranscriptBytes}. Start a new job`);
      }
      throw errors.jobNotFound();
    }
    ctx.log.info({ agentJob: result.job.id, turn: result.job.turn, promptChars: prompt.length }, 'agent job follow-up received');
    deps.kick();
    res.json(toAgentJob(result.job));
  });

  router.use(createAgentV1Router(ctx, { ...deps, loadProject, limiter }));
  return router;
}
