import type { Config } from '../../config/schema.js';
import type { AppContext } from '../context.js';
import type { Feature } from '../feature.js';
import type { PublishService } from '../publish/service.js';
import type { SiteRegistry } from '../sites/registry.js';
import { createBeaconForwarder, type BeaconForwarder } from './beacon-forwarder.js';
import { createFollower } from './follower.js';
import type { ReaderAccessService } from '../reader-access/service.js';
import { createReplicaReaderSessions, type ReplicaReaderSessions } from './reader-sessions.js';
import { createUpstreamRouter } from './upstream-routes.js';

export interface ReplicaFeature extends Feature {
  /** Set when `replica.upstreamSiteUrl` is: beacons go to the publisher instead of the local store. */
  forwarder: BeaconForwarder | undefined;
  /** Set on a serving replica: followed projects' reader sessions, checked here with the publisher's deny list. */
  readerSessions: ReplicaReaderSessions | undefined;
}

/**
 * Replicas that follow (issue 19, docs/publishing.md): on every appliance, the replica endpoints
 * the followers read (replica key only); on a serving replica (`replica.upstreamUrl`), the
 * follower; with `replica.upstreamSiteUrl`, the beacon forwarder.
 */
export function createReplicaFeature(ctx: AppContext, deps: { service: PublishService; registry: SiteRegistry; reader: ReaderAccessService }): ReplicaFeature {
  let config: Readonly<Config> = ctx.config;
  const key = () => process.env[config.replica.keyEnv];
  const readerSessions = config.replica.upstreamUrl ? createReplicaReaderSessions({ config: () => config, stores: ctx.stores, secrets: ctx.secrets, clock: ctx.clock, log: ctx.log, key }) : undefined;
  const follower = config.replica.upstreamUrl ? createFollower({ config: () => config, service: deps.service, registry: deps.registry, log: ctx.log, key, ...(readerSessions ? { readerSessions } : {}) }) : undefined;
  const forwarder = config.replica.upstreamSiteUrl ? createBeaconForwarder({ config: () => config, log: ctx.log, key }) : undefined;
  return {
    name: 'replica',
    forwarder,
    readerSessions,
    adminPublicRouter: createUpstreamRouter(ctx, deps.service, deps.reader),
    ...(follower
      ? {
          ready: () => {
            const s = follower.status;
            const r = readerSessions?.status();
            // Not critical either: the deny set kept is enforced while the publisher is away.
            const sessions = r?.lastError ? `; reader sessions: ${r.lastError} (${r.denied} denied kept)` : '';
            if (s.lastSyncAt) return { ok: true, critical: false, detail: `following ${config.replica.upstreamUrl}: ${s.sites} site(s), last sync ${s.lastSyncAt}${s.lastError ? `; last error: ${s.lastError}` : ''}${sessions}` };
            return { ok: false, critical: false, detail: `not yet synchronised with ${config.replica.upstreamUrl}${s.lastError ? `: ${s.lastError}` : ''}${sessions}` };
          },
        }
      : {}),
    start: () => {
      follower?.start();
      readerSessions?.start();
    },
    reload: (next) => {
      config = next;
    },
    stop: async () => {
      await follower?.stop();
      await readerSessions?.stop();
      await forwarder?.stop();
    },
  };
}
