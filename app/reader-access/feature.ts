import type { Request } from 'express';
import type { AppContext } from '../context.js';
import type { Feature } from '../feature.js';
import { createReaderRouter } from './routes.js';
import { createReaderAccessService, type ReaderAccessService } from './service.js';
import type { ReaderAccess } from './types.js';

export interface ReaderAccessDeps {
  /** The project whose site answers this Host (published site, preview or bundle); undefined: none. */
  projectForHost: (host: string | undefined) => string | undefined;
  /** The site answering this Host, whose look the sign-in pages take (site-look.ts); undefined: the defaults. */
  siteForHost?: (host: string | undefined) => { root: string } | undefined;
}

/**
 * Reader sign-in and sessions (issue 40, docs/reader-access.md): its routes on the site listener,
 * mounted before the site so they answer first, and the ReaderAccess service the site listener
 * (and every other route that carries content) asks for a reader's view.
 */
export function createReaderAccessFeature(ctx: AppContext, deps: ReaderAccessDeps): { feature: Feature; access: ReaderAccess; service: ReaderAccessService } {
  const service = createReaderAccessService(ctx);
  const projectFor = (req: Request) => deps.projectForHost(req.get('host'));
  // The feature carries the service too, so whoever holds the feature list can reach it.
  const feature: Feature & { access: ReaderAccess; service: ReaderAccessService } = {
    name: 'reader-access',
    access: service.access,
    service,
    siteRouter: createReaderRouter(ctx, service, projectFor, (req) => deps.siteForHost?.(req.get('host'))),
    cron: [
      {
        name: 'reader-sessions-prune',
        schedule: '17 * * * *',
        run: () => {
          let pruned = ctx.stores.readerSessions.pruneExpired();
          for (const { project, auth } of service.all()) pruned += ctx.stores.readerSessions.pruneIdle(project.id, auth.session.idleMinutes * 60_000);
          return { pruned };
        },
      },
    ],
    reload: (config) => service.configure(config),
  };
  return { feature, access: service.access, service };
}
