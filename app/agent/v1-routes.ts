import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import type { Config } from '../../config/schema.js';
import type { AppContext } from '../context.js';
import { errors } from '../errors.js';
import { validate } from '../http/validate.js';
import { newJobId, startJob, titleOf } from './new-job.js';
import { branchFromPrompt, promptFromMessages, v1JobBody } from './v1-request.js';
import { streamJob } from './v1-stream.js';
import { toAgentSessionV1 } from './v1-view.js';

const listQuery = z.object({
  skip: z.coerce.number({ error: 'must be an integer' }).int('must be an integer').min(0, 'must be at least 0').default(0),
  take: z.coerce.number({ error: 'must be an integer' }).int('must be an integer').min(1, 'must be at least 1').max(100, 'must be at most 100').default(12),
});

/**
 * The deprecated v1 agent operations (issue 17), on top of the v2 jobs: a v1 session is a v2
 * job seen in the v1 shape, so either API reads a job the other created. `loadProject` and
 * `limiter` are the v2 router's (same 404 rules, same hourly bucket per project).
 */
export function createAgentV1Router(ctx: AppContext, deps: { config(): Readonly<Config>; kick(): void; loadProject: RequestHandler; limiter: RequestHandler }): Router {
  const store = ctx.stores.agentJobs;
  const router = Router();

  router.post('/v1/agent/:projectId/job', deps.loadProject, deps.limiter, (req, res) => {
    const project = res.locals.agentProject!;
    const body = validate(v1JobBody, req.body, 'body');
    const config = deps.config();
    const id = newJobId();
    const prompt = promptFromMessages(body.messages);
    const firstUser = body.messages.find((m) => m.role === 'user' && m.content.trim())!.content;
    const job = startJob(ctx, config, project, { id, prompt, ref: body.branch ?? branchFromPrompt(body.messages, id), draft: body.asDraft ?? false, title: titleOf(firstUser) });
    if (body.model) ctx.log.info({ agentJob: id, requested: body.model, model: job.model }, 'agent v1 model name mapped to the configured model (agent.model)');
    deps.kick();
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('X-Accel-Buffering', 'no');
    res.setHeader('X-Session-Id', job.id);
    res.setHeader('X-Branch-Name', job.ref);
    res.setHeader('x-vercel-ai-ui-message-stream', 'v1');
    res.flushHeaders();
    const first = store.conversation(job.id, 1).at(-1)?.seq ?? 0;
    streamJob(ctx, res, job.id, first);
  });

  router.get('/v1/agent/:projectId/job/:id', deps.loadProject, (req, res) => {
    const job = store.getForProject(String(req.params.id), res.locals.agentProject!.id);
    if (!job) throw errors.jobNotFound();
    res.json(toAgentSessionV1(job));
  });

  router.get('/v1/agent/:projectId/jobs', deps.loadProject, (req, res) => {
    const { skip, take } = validate(listQuery, req.query, 'query');
    res.json({ allSessions: store.page(res.locals.agentProject!.id, skip, take).map(toAgentSessionV1) });
  });

  return router;
}
