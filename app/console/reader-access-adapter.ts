import type { ReaderAccessService } from '../reader-access/service.js';
import type { SiteAccess } from '../site/access-gate.js';
import type { ConsoleReaderAccess } from './services.js';

/**
 * The console's view of reader access (issue 40 point 6): the method from the reader-access
 * service's current config, the served bundle's page counts from the access map its ServedSite
 * parsed with the manifest, and the service's session list and audited revoke. `servedSite` names
 * the bundle the site listener serves for the project now (published site, else the single-site
 * bundle when it is the project's).
 */
export function consoleReaderAccessAdapter(
  service: Pick<ReaderAccessService, 'authed' | 'listSessions' | 'revokeSession'>,
  servedSite: (projectId: string) => { readonly access: SiteAccess | undefined } | undefined,
): ConsoleReaderAccess {
  return {
    method: (project) => service.authed(project.id)?.auth.method,
    served(project) {
      const site = servedSite(project.id);
      if (!site) return undefined;
      // No map, or the sign-in-everything stand-in of a bundle rendered before `auth`: not rendered with access.
      const access = site.access;
      return access && access.pages !== undefined ? { rendered: true, pages: access.pages } : { rendered: false };
    },
    // Only what the table shows: the user data (`content`, playground inputs) stays out of the console.
    sessions: (project) =>
      service.listSessions(project.id).map((s) => ({ id: s.id, method: s.method, groups: s.groups, createdAt: s.createdAt, lastSeenAt: s.lastSeenAt, expiresAt: s.expiresAt })),
    revoke: (project, id, actor) => service.revokeSession(project.id, id, actor),
  };
}
