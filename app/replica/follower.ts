import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Config } from '../../config/schema.js';
import type { Logger } from '../logger.js';
import type { PublishService } from '../publish/service.js';
import { bundlesDir, publishedSlot } from '../publish/slots.js';
import type { SiteRegistry } from '../sites/registry.js';
import type { ReplicaReaderSessions } from './reader-sessions.js';
import type { FollowedReaderAccess } from './upstream-routes.js';

/** How long past `replica.waitSeconds` a long-poll may take before the upstream counts as gone (scripts/container/kube-variant.mjs uses the same). */
export const POLL_MARGIN_S = 10;

/** The publisher answered with a status other than the one expected. */
class UpstreamError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

interface UpstreamSite {
  projectId: string;
  domain: string;
  version: string;
  dirName: string;
  bundlePath: string;
  /** Set for a project with reader access: what the replica checks its sessions with. */
  readerAccess?: FollowedReaderAccess;
}

export interface FollowerStatus {
  lastSyncAt: string | null;
  lastError: string | null;
  sites: number;
}

/** The sites this replica follows, kept beside them so a restart serves them before the first poll. */
const FOLLOWED_FILE = 'followed.json';

/**
 * A serving replica follows the publishing appliance (issue 19, docs/publishing.md): a long-poll
 * on `GET /v1/replica/sites` with its ETag; for each project whose active version differs from
 * what it serves, the bundle is downloaded with the replica key, verified, extracted and swapped
 * in by the same path as a publish. A failure keeps what is served and is retried with backoff.
 */
export function createFollower(deps: { config: () => Readonly<Config>; service: PublishService; registry: SiteRegistry; log: Logger; key: () => string | undefined; readerSessions?: ReplicaReaderSessions }) {
  const log = deps.log.child({ feature: 'replica' });
  const status: FollowerStatus = { lastSyncAt: null, lastError: null, sites: 0 };
  let controller = new AbortController();
  let loop: Promise<void> | undefined;
  let etag: string | undefined;
  let followedIds: string[] = [];
  const stateDir = () => deps.config().stateDir;
  const followedFile = () => path.join(stateDir(), 'published', FOLLOWED_FILE);

  const headers = (): Record<string, string> => {
    const key = deps.key();
    if (!key) throw new Error(`no replica key: set the environment variable ${deps.config().replica.keyEnv}`);
    return { authorization: `Bearer ${key}` };
  };

  async function download(site: UpstreamSite, signal: AbortSignal): Promise<string> {
    const base = deps.config().replica.upstreamUrl!.replace(/\/+$/, '');
    const res = await fetch(`${base}${site.bundlePath}`, { headers: headers(), signal });
    if (res.status !== 200 || !res.body) throw new UpstreamError(`bundle of ${site.version}: the publisher answered ${res.status}`, res.status);
    const dir = bundlesDir(publishedSlot(stateDir(), site.projectId));
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `.partial-${site.dirName}.zip`);
    await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), fs.createWriteStream(file), { signal });
    return file;
  }

  async function apply(sites: UpstreamSite[], signal: AbortSignal): Promise<void> {
    // A project the publisher no longer lists (removed from its config) is no longer served here.
    const listed = new Set(sites.map((s) => s.projectId));
    for (const id of followedIds) if (!listed.has(id)) deps.registry.removePublished(id);
    followedIds = [...listed];
    deps.registry.setFollowedDomains(sites);
    deps.readerSessions?.setFollowed(sites);
    fs.mkdirSync(path.dirname(followedFile()), { recursive: true });
    fs.writeFileSync(followedFile(), JSON.stringify(sites.map((s) => ({ projectId: s.projectId, domain: s.domain, ...(s.readerAccess ? { readerAccess: s.readerAccess } : {}) }))));
    for (const site of sites) {
      if (deps.registry.published(site.projectId)?.version === site.version) continue;
      const started = Date.now();
      const file = await download(site, signal);
      try {
        await deps.service.adopt(site.projectId, file, site.version, signal);
      } finally {
        fs.rmSync(file, { force: true });
      }
      log.info({ projectId: site.projectId, domain: site.domain, version: site.version, ms: Date.now() - started }, 'replica: now serving the published version');
    }
    status.sites = sites.length;
    status.lastSyncAt = new Date().toISOString();
    status.lastError = null;
  }

  async function run(signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      try {
        const cfg = deps.config().replica;
        const base = cfg.upstreamUrl!.replace(/\/+$/, '');
        const res = await fetch(`${base}/v1/replica/sites?wait=${cfg.waitSeconds}`, {
          headers: { ...headers(), ...(etag ? { 'if-none-match': etag } : {}) },
          // The publisher answers by the end of the wait; past it plus a margin the upstream is gone
          // (a pod stopped with its network: no FIN reaches us) and the next poll finds it again.
          signal: AbortSignal.any([signal, AbortSignal.timeout((cfg.waitSeconds + POLL_MARGIN_S) * 1000)]),
        });
        if (res.status === 304) {
          await res.body?.cancel();
          failures = 0;
          continue;
        }
        if (res.status !== 200) throw new UpstreamError(`the publisher answered ${res.status} to GET /v1/replica/sites${res.status === 401 || res.status === 403 ? ' (check the replica key)' : ''}`, res.status);
        const body = (await res.json()) as { sites: UpstreamSite[] };
        await apply(body.sites, signal);
        // Only once every site is applied: a failed download is tried again at the next request.
        etag = res.headers.get('etag') ?? undefined;
        failures = 0;
      } catch (err) {
        if (signal.aborted) return;
        failures += 1;
        const delay = Math.min(30_000, 500 * 2 ** Math.min(failures - 1, 6));
        status.lastError = (err as Error).message;
        // 401, 403, 404, 410: the key or the publisher's list must change; retried all the same.
        const refused = err instanceof UpstreamError && [401, 403, 404, 410].includes(err.status);
        const served = deps.registry.publishedSites().size;
        log.warn(
          { err: status.lastError, refused, retryInMs: delay, serving: served },
          `replica: following the publisher ${refused ? 'was refused (retrying will not cure it until the replica key or the publisher changes)' : 'failed'}; ${served ? `the ${served} site(s) served stay served` : 'no site is served yet'}`,
        );
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
      }
    }
  }

  return {
    status,
    start(): void {
      // Serve what was followed before the restart at once, then follow.
      try {
        const followed = JSON.parse(fs.readFileSync(followedFile(), 'utf8')) as Array<{ projectId: string; domain: string; readerAccess?: FollowedReaderAccess }>;
        deps.registry.setFollowedDomains(followed);
        deps.readerSessions?.setFollowed(followed);
        followedIds = followed.map((f) => f.projectId);
        deps.service.restoreFollowed(followedIds);
      } catch {
        // first start of this replica
      }
      controller = new AbortController();
      loop = run(controller.signal);
    },
    async stop(): Promise<void> {
      controller.abort();
      await loop;
    },
  };
}
