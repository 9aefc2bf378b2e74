import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import express, { Router } from 'express';
import { replicaKeyReaches, type AdminKey } from '../../data/stores/admin-keys.js';
import type { AppContext } from '../context.js';
import { errors } from '../errors.js';
import { listVersions, readActive } from '../loader/sites-dir.js';
import type { PublishService } from '../publish/service.js';
import { bundleFile, publishedSlot } from '../publish/slots.js';
import type { ReaderAccessService } from '../reader-access/service.js';
import { replicaKeyOf, requireReplicaKey } from './auth.js';

/** What a replica needs to check a followed project's reader sessions itself (no secret in it). */
export interface FollowedReaderAccess {
  method: 'jwt' | 'oauth' | 'password';
  /** The portal a signed-out reader is sent to (jwt with one login URL); otherwise the site's /login. */
  loginUrl?: string;
  idleMinutes: number;
}

/** The most ended sessions one answer lists, and the most last-seen reports one request takes. */
export const MAX_ENDED_PAGE = 1000;
export const MAX_SEEN_BATCH = 1000;

/** The longest a replica may ask the publisher to hold a request open. */
const MAX_WAIT_S = 120;
/**
 * How long the version an activation replaced stays downloadable: a replica that read the list
 * just before the swap asks for it at once, and is still serving it while the new one rolls out.
 */
export const REPLACED_VERSION_GRACE_MS = MAX_WAIT_S * 1000;

/**
 * What serving replicas read on the publishing appliance (admin listener, replica key only):
 * `GET /v1/replica/sites` (the active version of every published project the key reaches; `ETag`,
 * and with `If-None-Match` and `?wait=<s>` a long-poll that answers as soon as one of those
 * versions changes, or 304 when the wait ends) and
 * `GET /v1/replica/sites/{projectId}/{dirName}/bundle.zip` (the verified archive of the version
 * served, or of the one it replaced during the grace above). A key reaches its organization's
 * projects, or every organization's when made with `--all-organizations`; anything else is 404,
 * as if it did not exist (docs/publishing.md, "Serving replicas").
 */
export function createUpstreamRouter(ctx: AppContext, service: PublishService, reader: Pick<ReaderAccessService, 'authed' | 'all'>): Router {
  const router = Router();
  router.use('/v1/replica', requireReplicaKey(ctx.stores));

  const reaches = (key: AdminKey, projectId: string): boolean => {
    const orgId = ctx.stores.projects.get(projectId)?.orgId;
    return orgId !== undefined && replicaKeyReaches(key, orgId);
  };

  const readerAccessOf = (projectId: string): FollowedReaderAccess | undefined => {
    const auth = reader.authed(projectId)?.auth;
    if (!auth) return undefined;
    return { method: auth.method, ...(auth.jwt?.loginUrl ? { loginUrl: auth.jwt.loginUrl } : {}), idleMinutes: auth.session.idleMinutes };
  };

  const snapshot = (key: AdminKey) => {
    const sites = service
      .activeSites()
      .filter((s) => reaches(key, s.projectId))
      .map((s) => {
        const readerAccess = readerAccessOf(s.projectId);
        return { ...s, bundlePath: `/v1/replica/sites/${s.projectId}/${encodeURIComponent(s.dirName)}/bundle.zip`, ...(readerAccess ? { readerAccess } : {}) };
      });
    const etag = `"${crypto.createHash('sha256').update(JSON.stringify(sites.map((s) => [s.projectId, s.domain, s.version, s.readerAccess ?? null]))).digest('hex').slice(0, 32)}"`;
    return { sites, etag };
  };

  /** The version a replica may download: the one served, or the one it replaced a moment ago. */
  const downloadable = (projectId: string, dirName: string): boolean => {
    const slot = publishedSlot(ctx.config.stateDir, projectId);
    const active = readActive(slot);
    if (!active) return false;
    if (path.basename(active.dir) === dirName) return true;
    const since = Date.now() - Date.parse(active.activatedAt);
    if (!(since >= 0 && since < REPLACED_VERSION_GRACE_MS)) return false;
    const replaced = listVersions(slot).find((v) => v.dir !== active.dir);
    return replaced?.name === dirName;
  };

  router.get('/v1/replica/sites', (req, res) => {
    const key = replicaKeyOf(res);
    const wait = Math.min(MAX_WAIT_S, Math.max(0, Number(req.query.wait ?? 0) || 0));
    const known = req.get('if-none-match');
    const answer = (snap = snapshot(key)) => {
      res.setHeader('ETag', snap.etag);
      res.setHeader('Cache-Control', 'no-store');
      if (known === snap.etag) return void res.status(304).end();
      res.json({ sites: snap.sites });
    };
    if (!known || wait === 0 || known !== snapshot(key).etag) return answer();
    // Long-poll: answer at the first change this key can see (another organization's publish
    // neither ends the wait nor shows through its timing), or 304 when the wait is over.
    let done = false;
    const stop = () => {
      done = true;
      clearTimeout(timer);
      unsubscribe();
      ctx.lifecycle.stopping.removeEventListener('abort', finish);
    };
    const finish = () => {
      if (done) return;
      stop();
      if (!res.writableEnded && !res.destroyed) answer();
    };
    const unsubscribe = service.onChange(() => {
      if (!done && snapshot(key).etag !== known) finish();
    });
    const timer = setTimeout(finish, wait * 1000);
    req.on('close', stop);
    // A stop ends the wait now (304: nothing changed), so the drain does not wait out the long-poll.
    ctx.lifecycle.stopping.addEventListener('abort', finish, { once: true });
    if (ctx.lifecycle.stopping.aborted) finish();
  });

  router.get('/v1/replica/sites/:projectId/:dirName/bundle.zip', (req, res) => {
    const projectId = String(req.params.projectId);
    const dirName = String(req.params.dirName);
    if (!/^[0-9a-f]{24}$/.test(projectId) || !/^[A-Za-z0-9][A-Za-z0-9._+-]{0,200}$/.test(dirName) || dirName.includes('..')) throw errors.badRequest('Malformed project id or version');
    if (!reaches(replicaKeyOf(res), projectId) || !downloadable(projectId, dirName)) throw errors.routeNotFound('GET', req.path);
    const file = bundleFile(publishedSlot(ctx.config.stateDir, projectId), dirName);
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat?.isFile()) throw errors.routeNotFound('GET', req.path);
    res.writeHead(200, { 'content-type': 'application/zip', 'content-length': stat.size, 'cache-control': 'no-store' });
    fs.createReadStream(file).on('error', () => res.destroy()).pipe(res);
  });

  /*
   * Reader sessions on replicas (docs/reader-access.md, "Replicas"). A replica verifies the
   * sealed cookie itself; what only the publisher's rows know (revoked, signed out, idle) it reads
   * here as a journal of ended sessions after a cursor, and it reports when it served a session so
   * idle expiry is measured over every replica.
   */
  router.get('/v1/replica/reader-sessions/ended', (req, res) => {
    const key = replicaKeyOf(res);
    const after = Number(req.query.after ?? 0);
    const limit = Math.min(MAX_ENDED_PAGE, Math.max(1, Number(req.query.limit ?? MAX_ENDED_PAGE) || MAX_ENDED_PAGE));
    if (!Number.isSafeInteger(after) || after < 0) throw errors.badRequest('after must be a journal number (a non-negative integer)');
    // Idle sessions end now, not at the hourly prune: a reader who went idle is refused by every
    // replica at its next read, though nobody asked the publisher for that session.
    for (const { project, auth } of reader.all()) ctx.stores.readerSessions.pruneIdle(project.id, auth.session.idleMinutes * 60_000);
    // A cursor past the journal's end is another publisher's (its state was replaced): start again.
    const from = after > ctx.stores.readerSessions.lastEndSeq() ? 0 : after;
    const page = ctx.stores.readerSessions.endedAfter(from, limit);
    const cursor = page.at(-1)?.seq ?? from;
    res.setHeader('Cache-Control', 'no-store');
    res.json({
      ended: page.filter((e) => reaches(key, e.projectId)).map(({ id, projectId, reason, expiresAt }) => ({ id, projectId, reason, expiresAt })),
      cursor,
      more: page.length === limit,
      ...(from !== after ? { reset: true } : {}),
    });
  });

  router.post('/v1/replica/reader-sessions/seen', express.json({ limit: '256kb' }), (req, res) => {
    const key = replicaKeyOf(res);
    const seen = (req.body as { seen?: unknown } | undefined)?.seen;
    if (!Array.isArray(seen) || seen.length > MAX_SEEN_BATCH) throw errors.badRequest(`seen must be an array of at most ${MAX_SEEN_BATCH} reports`);
    const valid = seen.filter((s): s is { id: string; projectId: string; at: string } => {
      const r = s as Record<string, unknown> | null;
      return !!r && typeof r.id === 'string' && /^[0-9a-f]{64}$/.test(r.id) && typeof r.projectId === 'string' && typeof r.at === 'string' && !Number.isNaN(Date.parse(r.at));
    });
    if (valid.length !== seen.length) throw errors.badRequest('each report needs id (the session hash), projectId and at (ISO time)');
    // A time ahead of the publisher's clock is taken as now: a replica cannot keep a session alive into the future.
    const now = ctx.clock.now().getTime();
    const run = ctx.stores.readerSessions;
    for (const s of valid) {
      const auth = reader.authed(s.projectId)?.auth;
      if (auth && reaches(key, s.projectId)) run.seenOnReplica(s.id, s.projectId, new Date(Math.min(Date.parse(s.at), now)), auth.session.idleMinutes * 60_000);
    }
    res.status(204).end();
  });

  return router;
}
