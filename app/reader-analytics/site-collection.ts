import fs from 'node:fs';
import path from 'node:path';
import type { ReaderAnalyticsSettings } from '../../renderer/load/reader-analytics.js';
import type { ServedSite } from '../site/served-site.js';

/** What a served site collects: its bundle's own switches (Mintlify's), as the exporter wrote them. */
export type SiteCollection = Readonly<ReaderAnalyticsSettings>;

export const COLLECT_ALL: SiteCollection = Object.freeze({ pageViews: true, thumbs: true, code: true });
const COLLECT_NOTHING: SiteCollection = Object.freeze({ pageViews: false, thumbs: false, code: false });

const bySite = new WeakMap<ServedSite, SiteCollection>();

/**
 * The bundle's `readerAnalytics` from its manifest.json (docs.json `integrations.telemetry`,
 * mint.json `feedback`; docs/analytics.md, "Off switches"), read once per served site. A switch
 * is off only when the manifest says `false`: a bundle exported before the manifest carried them,
 * or a site without a manifest (a mounted directory), collects everything, as its pages do.
 */
export function siteCollection(site: ServedSite): SiteCollection {
  let known = bySite.get(site);
  if (!known) bySite.set(site, (known = readCollection(site.root)));
  return known;
}

function readCollection(root: string): SiteCollection {
  let raw: unknown;
  try {
    raw = (JSON.parse(fs.readFileSync(path.join(root, 'manifest.json'), 'utf8')) as { readerAnalytics?: unknown }).readerAnalytics;
  } catch {
    return COLLECT_ALL;
  }
  if (raw === undefined) return COLLECT_ALL;
  if (raw === null || typeof raw !== 'object') return COLLECT_NOTHING; // written by something else: collect nothing rather than guess
  const r = raw as Record<string, unknown>;
  return Object.freeze({ pageViews: r.pageViews !== false, thumbs: r.thumbs !== false, code: r.code !== false });
}

/**
 * The collection of the site a Host is answered from. With no site there, the site's switches
 * do not apply (the appliance's still does): the beacon endpoint and the listener's count have
 * already refused a Host no site answers, so only callers outside a site request get here.
 */
export function collectionByHost(siteFor: (host: string | undefined) => ServedSite | undefined): (host: string | undefined) => SiteCollection {
  return (host) => {
    const site = siteFor(host);
    return site ? siteCollection(site) : COLLECT_ALL;
  };
}
