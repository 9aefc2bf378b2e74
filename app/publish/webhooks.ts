import crypto from 'node:crypto';
import express, { Router, type Request } from 'express';
import type { Config } from '../../config/schema.js';
import type { PublishStore, PublishTrigger, WebhookHost } from '../../data/stores/publishes.js';
import type { AppContext } from '../context.js';
import { errors } from '../errors.js';
import type { PublishService } from './service.js';

/** Push payloads are small; the largest legitimate ones list many commits. */
const MAX_WEBHOOK_BYTES = 4 * 1024 * 1024;
const ZERO_SHA = /^0+$/;

interface Delivery {
  host: WebhookHost;
  event: string;
  id: string | undefined;
  verified: boolean;
}

const sameBytes = (a: Buffer, b: Buffer) => a.length === b.length && crypto.timingSafeEqual(a, b);
const hmacHex = (secret: string, body: Buffer) => crypto.createHmac('sha256', secret).update(body).digest();

/**
 * Which host sent it, by its own headers, and whether its proof holds: Gitea's `X-Gitea-Signature`
 * and GitHub's `X-Hub-Signature-256` are HMAC-SHA256 of the raw body with the shared secret;
 * GitLab sends the secret itself in `X-Gitlab-Token`. Gitea also sends GitHub's headers, so it is
 * recognised first. Compared in constant time.
 */
function identify(req: Request, body: Buffer, secret: string): Delivery | undefined {
  const h = (name: string) => req.get(name);
  if (h('x-gitea-event') !== undefined || h('x-gitea-signature') !== undefined) {
    const sig = Buffer.from(h('x-gitea-signature') ?? '', 'hex');
    return { host: 'gitea', event: h('x-gitea-event') ?? '', id: h('x-gitea-delivery'), verified: sameBytes(sig, hmacHex(secret, body)) };
  }
  if (h('x-gitlab-event') !== undefined || h('x-gitlab-token') !== undefined) {
    const digest = (s: string) => crypto.createHash('sha256').update(s).digest();
    return { host: 'gitlab', event: h('x-gitlab-event') ?? '', id: h('x-gitlab-event-uuid') ?? h('idempotency-key') ?? h('x-gitlab-webhook-uuid'), verified: sameBytes(digest(h('x-gitlab-token') ?? ''), digest(secret)) };
  }
  if (h('x-github-event') !== undefined || h('x-hub-signature-256') !== undefined) {
    const m = /^sha256=([0-9a-f]{64})$/i.exec(h('x-hub-signature-256') ?? '');
    return { host: 'github', event: h('x-github-event') ?? '', id: h('x-github-delivery'), verified: !!m && sameBytes(Buffer.from(m[1]!, 'hex'), hmacHex(secret, body)) };
  }
  return undefined;
}

const isPush = (d: Delivery) => (d.host === 'gitlab' ? d.event === 'Push Hook' : d.event === 'push');

/**
 * `POST /hooks/git/{projectId}` on the admin listener, outside the admin-key check: a push from
 * Gitea, GitLab or GitHub Enterprise, proven by the project's secret (`publish.webhookSecretEnv`).
 * Replay-safe: a delivery id, and a pushed commit, are acted on once; a replayed payload only
 * ever leads to publishing the branch head as the appliance fetches it itself (the payload's
 * content is never trusted for what is published). Answered at once: 202 with the statusId.
 */
export function createWebhookRouter(ctx: AppContext, deps: { service: PublishService; store: PublishStore; config: () => Readonly<Config> }): Router {
  const router = Router();
  const log = ctx.log.child({ feature: 'publish' });
  router.post('/hooks/git/:projectId', express.raw({ type: () => true, limit: MAX_WEBHOOK_BYTES }), (req, res) => {
    const project = ctx.stores.projects.get(String(req.params.projectId));
    if (!project) throw errors.projectNotFound();
    const settings = deps.config().projects.find((p) => p.id === project.id)?.publish;
    const secret = settings?.webhookSecretEnv ? process.env[settings.webhookSecretEnv] : undefined;
    if (!secret) throw errors.forbidden('WEBHOOK_DISABLED', 'Push webhooks are not enabled for this project (set projects[].publish.webhookSecretEnv)');
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const delivery = identify(req, body, secret);
    if (!delivery) throw errors.webhookUnauthorized('Not a Gitea, GitLab or GitHub webhook: no signature or token header');
    if (!delivery.verified) {
      log.warn({ projectId: project.id, host: delivery.host }, 'webhook refused: signature or token does not match');
      throw errors.webhookUnauthorized(`The ${delivery.host === 'gitlab' ? 'X-Gitlab-Token' : 'signature'} does not match this project's webhook secret`);
    }
    if (!isPush(delivery)) return void res.status(200).json({ ignored: `event "${delivery.event}" is not a push` });
    if (!delivery.id) throw errors.badRequest('The delivery has no id header (X-Gitea-Delivery, X-GitHub-Delivery or X-Gitlab-Event-UUID); refused, since a replay could not be told apart');
    let payload: { ref?: unknown; after?: unknown };
    try {
      payload = JSON.parse(body.toString('utf8')) as typeof payload;
    } catch {
      throw errors.badRequest('The push payload is not JSON');
    }
    if (!deps.store.firstDelivery(project.id, `delivery:${delivery.id}`)) return void res.status(200).json({ ignored: 'this delivery was already received' });
    const ref = typeof payload.ref === 'string' ? payload.ref : '';
    const after = typeof payload.after === 'string' ? payload.after : '';
    if (!ref.startsWith('refs/heads/')) return void res.status(200).json({ ignored: `ref "${ref}" is not a branch` });
    if (ZERO_SHA.test(after)) return void res.status(200).json({ ignored: 'the branch was deleted' });
    const branch = ref.slice('refs/heads/'.length);
    // The same pushed commit under a new delivery id (a replay of a captured payload): nothing to do.
    if (after && !deps.store.firstDelivery(project.id, `push:${branch}:${after}`)) return void res.status(200).json({ ignored: 'this push was already received' });
    const trigger: PublishTrigger = `webhook:${delivery.host}`;
    if (settings?.source === 'git' && branch === (project.branch ?? 'main')) {
      const record = deps.service.publish(project.id, trigger);
      log.info({ projectId: project.id, host: delivery.host, branch, statusId: record.id }, 'push webhook: publishing');
      return void res.status(202).json({ statusId: record.id });
    }
    const preview = deps.service.previews(project.id).find((p) => p.branch === branch);
    if (preview) {
      const { record, previewUrl } = deps.service.preview(project.id, branch, trigger);
      return void res.status(202).json({ statusId: record.id, previewUrl });
    }
    res.status(200).json({ ignored: `branch "${branch}" is neither the published branch nor a live preview` });
  });
  return router;
}
