import crypto from 'node:crypto';
import fs from 'node:fs';
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { errors } from '../errors.js';
import type { PublishService } from '../publish/service.js';
import { bundleFile, publishedSlot } from '../publish/slots.js';
import { requireReplicaKey } from './auth.js';

/** The longest a replica may ask the publisher to hold a request open. */
const MAX_WAIT_S = 120;

/**
 * What serving replicas read on the publishing appliance (admin listener, replica key only):
 * `GET /v1/replica/sites` (the active version of every published project; `ETag`, and with
 * `If-None-Match` and `?wait=<s>` a long-poll that answers as soon as a version changes, or 304
 * when the wait ends) and `GET /v1/replica/sites/{projectId}/{dirName}/bundle.zip` (a kept
 * version's verified archive).
 */
export function createUpstreamRouter(ctx: AppContext, service: PublishService): Router {
  const router = Router();
  router.use('/v1/replica', requireReplicaKey(ctx.stores));

  const snapshot = () => {
    const sites = service.activeSites().map((s) => ({ ...s, bundlePath: `/v1/replica/sites/${s.projectId}/${encodeURIComponent(s.dirName)}/bundle.zip` }));
    const etag = `"${crypto.createHash('sha256').update(JSON.stringify(sites.map((s) => [s.projectId, s.domain, s.version]))).digest('hex').slice(0, 32)}"`;
    return { sites, etag };
  };

  router.get('/v1/replica/sites', (req, res) => {
    const wait = Math.min(MAX_WAIT_S, Math.max(0, Number(req.query.wait ?? 0) || 0));
    const known = req.get('if-none-match');
    const answer = () => {
      const snap = snapshot();
      res.setHeader('ETag', snap.etag);
      res.setHeader('Cache-Control', 'no-store');
      if (known === snap.etag) return void res.status(304).end();
      res.json({ sites: snap.sites });
    };
    if (!known || wait === 0 || known !== snapshot().etag) return answer();
    // Long-poll: answer at the first change, or 304 when the wait is over.
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      unsubscribe();
      if (!res.writableEnded && !res.destroyed) answer();
    };
    const unsubscribe = service.onChange(finish);
    const timer = setTimeout(finish, wait * 1000);
    req.on('close', () => {
      done = true;
      clearTimeout(timer);
      unsubscribe();
    });
  });

  router.get('/v1/replica/sites/:projectId/:dirName/bundle.zip', (req, res) => {
    const projectId = String(req.params.projectId);
    const dirName = String(req.params.dirName);
    if (!/^[0-9a-f]{24}$/.test(projectId) || !/^[A-Za-z0-9][A-Za-z0-9._+-]{0,200}$/.test(dirName) || dirName.includes('..')) throw errors.badRequest('Malformed project id or version');
    const file = bundleFile(publishedSlot(ctx.config.stateDir, projectId), dirName);
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat?.isFile()) throw errors.routeNotFound('GET', req.path);
    res.writeHead(200, { 'content-type': 'application/zip', 'content-length': stat.size, 'cache-control': 'no-store' });
    fs.createReadStream(file).on('error', () => res.destroy()).pipe(res);
  });

  return router;
}
