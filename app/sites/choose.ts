import type { ServedSite } from '../site/served-site.js';
import type { SiteRegistry } from './registry.js';

/** The site a request is answered from, or why there is none (503: nothing served at all; 404: not at this host). */
export type SiteChoice = { site: ServedSite; preview: boolean } | { site: undefined; reason: 'nothing-served' | 'not-here' };

/**
 * Which site answers a Host (docs/publishing.md, "Which site a host name gets"):
 * a preview host or a project's `domain` with a published site gets that site; a project's domain
 * with nothing published yet gets the single-site bundle (`staticExport`, the first-start
 * example) only when that bundle is the project's own or names no project. Any other host gets the
 * operator's default: `publish.defaultProject`'s site, else the single-site bundle, else the
 * only published site; past that, a 404 page (a 503 while nothing at all is served).
 */
export function chooseSite(registry: SiteRegistry | undefined, single: ServedSite | undefined, host: string | undefined, defaultProject: string | undefined): SiteChoice {
  if (!registry || registry.size === 0) return single ? { site: single, preview: false } : { site: undefined, reason: 'nothing-served' };
  const answer = registry.forHost(host);
  if (answer.kind === 'site') return { site: answer.hosted.site, preview: answer.hosted.preview };
  if (answer.kind === 'project-unpublished') {
    if (single && (single.projectId === null || single.projectId === answer.projectId)) return { site: single, preview: false };
    return { site: undefined, reason: 'not-here' };
  }
  const fallback = (defaultProject ? registry.published(defaultProject) : undefined) ?? single ?? onlyOne(registry);
  return fallback ? { site: fallback, preview: false } : { site: undefined, reason: 'not-here' };
}

function onlyOne(registry: SiteRegistry): ServedSite | undefined {
  const sites = registry.publishedSites();
  return sites.size === 1 ? sites.values().next().value : undefined;
}
