import type { Stores } from '../../data/stores/index.js';

/** Which project a beacon belongs to, from the request's Host header; undefined = none served. */
export type SiteProjectResolver = (host: string | undefined) => string | undefined;

/** Written by the site loader when it activates a bundle. */
export const ACTIVE_SITE_PROJECT_KEY = 'site.active.projectId';

/**
 * The default resolver (docs/analytics.md, "Which project an event belongs to"): the project
 * whose domain is the Host (port ignored); else the project of the active bundle; else the only
 * project, if there is exactly one.
 */
export function defaultSiteProjectResolver(stores: Stores): SiteProjectResolver {
  return (host) => {
    const name = host?.replace(/:\d+$/, '').replace(/^\[|\]$/g, '').toLowerCase();
    if (name) {
      const byDomain = stores.projects.getByDomain(name);
      if (byDomain) return byDomain.id;
    }
    const active = stores.settings.get(ACTIVE_SITE_PROJECT_KEY);
    if (active && stores.projects.get(active)) return active;
    const all = stores.projects.list();
    return all.length === 1 ? all[0]!.id : undefined;
  };
}
