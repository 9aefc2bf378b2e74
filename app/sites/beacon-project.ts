import type { Stores } from '../../data/stores/index.js';
import { servedSiteProjectResolver, type SiteProjectResolver } from '../analytics/project-resolver.js';
import type { ServedSite } from '../site/served-site.js';

/**
 * Beacon attribution with several sites on the listener: a beacon counts for the project of the
 * site its Host is answered from (a published site or preview: the project it was published
 * for). The single-site bundle keeps the rules it always had (docs/analytics.md).
 */
export function hostAwareResolver(stores: Stores, site: { current(): ServedSite | undefined; siteFor(host: string | undefined): ServedSite | undefined }): SiteProjectResolver {
  const single = servedSiteProjectResolver(stores, () => site.current());
  return (host) => {
    const chosen = site.siteFor(host);
    if (!chosen) return undefined;
    if (chosen === site.current()) return single(host);
    return chosen.projectId ?? undefined;
  };
}
