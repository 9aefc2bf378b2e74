import type { BuildWarning, BundleManifest, BundleRedirect, RenderFailure } from '../types.js';
import type { ReaderAnalyticsSettings } from '../load/reader-analytics.js';
import type { SiteFiles } from './site-files.js';

export const MANIFEST_PATH = 'manifest.json';

export interface ManifestMeta {
  jobId: string;
  projectId: string;
  domain: string;
  version: string;
  createdAt: Date;
  pageCount: number;
  warnings: BuildWarning[];
  /** Set by a keepGoing export (even when empty), so a reader can tell "none failed" from "not recorded". */
  failures?: RenderFailure[];
  redirects?: BundleRedirect[];
  /** What the site collects (Mintlify's switches): the site listener honours it for what it counts itself. */
  readerAnalytics?: ReaderAnalyticsSettings;
  /** Reader access (issue 40): only in bundles exported with it on. */
  access?: import('../access/contract.js').BundleAccess;
}

/** manifest.json: what the loader verifies before serving (every other file's size and sha256). */
export function buildManifest(site: SiteFiles, meta: ManifestMeta): BundleManifest {
  return {
    format: 1,
    jobId: meta.jobId,
    projectId: meta.projectId,
    domain: meta.domain,
    version: meta.version,
    createdAt: meta.createdAt.toISOString(),
    pageCount: meta.pageCount,
    files: site
      .sortedPaths()
      .filter((p) => p !== MANIFEST_PATH)
      .map((p) => ({ path: p, size: site.size(p), sha256: site.sha256(p) })),
    warnings: meta.warnings,
    ...(meta.failures ? { failures: meta.failures } : {}),
    ...(meta.redirects && meta.redirects.length > 0 ? { redirects: meta.redirects } : {}),
    ...(meta.readerAnalytics ? { readerAnalytics: meta.readerAnalytics } : {}),
    ...(meta.access ? { access: meta.access } : {}),
  };
}
