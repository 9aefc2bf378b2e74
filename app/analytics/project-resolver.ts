import type { Stores } from '../../data/stores/index.js';

/** Which project a beacon belongs to, from the request's Host header; undefined = none served. */
export type SiteProjectResolver = (host: string | undefined) => string | undefined;

/** What the site listener serves right now, as far as attribution cares (undefined: nothing). */
export type ServedSiteInfo = () => { projectId: string | null } | undefined;

/** Written by the site loader when it activates a bundle. */
export const ACTIVE_SITE_PROJECT_KEY = 'site.active.projectId';

/**
 * A reader's beacon is recorded only for the site this listener serves (docs/analytics.md, "Which
 * project an event belongs to"): the project of the active site (its manifest's projectId; a site
 * without one belongs to the only project, if there is exactly one). A Host naming another
 * project's domain is refused: this listener does not serve that project, so no reader of it can
 * have sent the beacon here. Any other Host (an address, a proxy's name) counts for the served project.
 */
export function servedSiteProjectResolver(stores: Stores, served: ServedSiteInfo): SiteProjectResolver {
  return (host) => {
    const site = served();
    if (!site) return undefined;
    let project = site.projectId ? stores.projects.get(site.projectId)?.id : undefined;
    if (!project && !site.projectId) {
      const all = stores.projects.list();
      project = all.length === 1 ? all[0]!.id : undefined;
    }
    if (!project) return undefined;
    const name = host?.replace(/:\d+$/, '').replace(/^\[|\]$/g, '').toLowerCase();
    const named = name ? stores.projects.getByDomain(name) : undefined;
    if (named && named.id !== project) return undefined;
    return project;
  };
}
