import type { ServedSite } from '../site/served-site.js';

/** A site the listener serves at a host name of its own. */
export interface HostedSite {
  site: ServedSite;
  projectId: string;
  /** A branch preview: answered with `X-Robots-Tag: noindex` (search engines leave it out). */
  preview: boolean;
}

/** How the site listener answers a Host: a site, the default, or "nothing is published here". */
export type HostAnswer = { kind: 'site'; hosted: HostedSite } | { kind: 'project-unpublished'; projectId: string } | { kind: 'unknown' };

/** `Docs.Example.internal:8080`, `[::1]:80`, `docs.example.internal.` → the bare lowercase name. */
export function hostName(header: string | undefined): string {
  if (!header) return '';
  let h = header.trim().toLowerCase();
  if (h.startsWith('[')) h = h.slice(1, h.indexOf(']') === -1 ? undefined : h.indexOf(']'));
  else h = h.replace(/:\d*$/, '');
  return h.replace(/\.$/, '');
}

/**
 * The sites of the site listener by host name (issue 19): each project's published site at its
 * `domain`, and branch previews at their own names. The publish service fills it; the site
 * feature reads it on every request, so lookups are two Map reads and nothing else. Swapping a
 * project's site is one assignment: requests already running finish on the old one.
 */
export function createSiteRegistry() {
  /** domain → project id, refreshed when the projects change (start, SIGHUP). */
  let domains = new Map<string, string>();
  /** A replica's domains, learnt from the publishing appliance (it may declare no project itself). */
  let followed = new Map<string, string>();
  const published = new Map<string, ServedSite>();
  const previews = new Map<string, HostedSite>();

  return {
    setDomains(projects: ReadonlyArray<{ id: string; domain: string }>): void {
      domains = new Map(projects.map((p) => [p.domain.toLowerCase(), p.id]));
    },
    setFollowedDomains(sites: ReadonlyArray<{ projectId: string; domain: string }>): void {
      followed = new Map(sites.map((p) => [p.domain.toLowerCase(), p.projectId]));
    },
    /** Make `site` the project's served site (publish, rollback, restore at start). */
    setPublished(projectId: string, site: ServedSite): void {
      published.set(projectId, site);
    },
    /** Stop serving the project's site (a replica whose publisher no longer lists it). */
    removePublished(projectId: string): void {
      published.delete(projectId);
    },
    published(projectId: string): ServedSite | undefined {
      return published.get(projectId);
    },
    setPreview(host: string, projectId: string, site: ServedSite): void {
      previews.set(host.toLowerCase(), { site, projectId, preview: true });
    },
    removePreview(host: string): void {
      previews.delete(host.toLowerCase());
    },
    preview(host: string): HostedSite | undefined {
      return previews.get(host.toLowerCase());
    },
    /** The projects a replica follows (as the publishing appliance listed them), served or not yet. */
    followedSites(): Array<{ projectId: string; domain: string }> {
      return [...followed].map(([domain, projectId]) => ({ projectId, domain }));
    },
    /** The host name a project's site answers at, when known (its config, or the publisher's list). */
    domainOf(projectId: string): string | undefined {
      for (const map of [domains, followed]) for (const [domain, id] of map) if (id === projectId) return domain;
      return undefined;
    },
    /** Published sites (project id → site), e.g. the only one there is. */
    publishedSites(): ReadonlyMap<string, ServedSite> {
      return published;
    },
    get size(): number {
      return published.size + previews.size;
    },
    /** What a request's Host header names. */
    forHost(header: string | undefined): HostAnswer {
      const name = hostName(header);
      const preview = previews.get(name);
      if (preview) return { kind: 'site', hosted: preview };
      const projectId = domains.get(name) ?? followed.get(name);
      if (!projectId) return { kind: 'unknown' };
      const site = published.get(projectId);
      return site ? { kind: 'site', hosted: { site, projectId, preview: false } } : { kind: 'project-unpublished', projectId };
    },
  };
}

export type SiteRegistry = ReturnType<typeof createSiteRegistry>;
