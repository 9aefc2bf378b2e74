import type { AppContext } from './context.js';
import type { Feature } from './feature.js';
import type { ExportRunner } from './static-export/export-thread.js';
import type { WorkerEntry } from './agent/worker-host.js';
import type { ReaderAccess } from './reader-access/types.js';
import { createCoreFeature } from './core/feature.js';
import { createAgentFeature } from './agent/feature.js';
import { createAutomationsFeature } from './automations/feature.js';
import { createExportReports } from './automations/export-report.js';
import { createSiteFeature } from './site/feature.js';
import { createReaderAccessFeature } from './reader-access/feature.js';
import { createAnalyticsFeature } from './analytics/feature.js';
import { createStaticExportFeature } from './static-export/feature.js';
import { createReaderAnalyticsFeature } from './reader-analytics/feature.js';
import { createAssistantFeature } from './assistant/feature.js';
import { createPlaygroundFeature } from './site/playground-proxy.js';
import { createPublishFeature } from './publish/feature.js';
import { createSiteRegistry } from './sites/registry.js';
import { hostAwareResolver } from './sites/beacon-project.js';
import { createReplicaFeature } from './replica/feature.js';
import { createConsoleFeature } from './console/feature.js';
import { registerHealthMetrics } from './monitoring/health-metrics.js';
import { consolePublishAdapter } from './console/publish-adapter.js';
import { createReaderSeries } from './console/reader-series.js';
import { consoleReaderAccessAdapter } from './console/reader-access-adapter.js';
import { createGitHostClient } from './agent/git-host.js';

/** What the wiring may be handed instead of building it (tests share one warm export thread). */
export interface FeatureDeps {
  /**
   * The export thread (and its render pool) for static exports and publishes. The caller owns
   * it: stopping the features leaves it running. Default: each of the two features starts its own
   * with its first export and closes it on stop.
   */
  exportRunner?: ExportRunner;
  /** The module an agent turn's thread runs (default: the runner next to worker-host, .js or .ts). */
  agentWorkerEntry?: WorkerEntry;
  /** Reader sign-in (issue 40, app/reader-access): the site listener and the assistant ask it for a reader's view. */
  readerAccess?: ReaderAccess;
}

/**
 * Every slice of the appliance, in mounting order. The site feature comes last: it answers
 * everything the others (event beacons) did not.
 */
export function createFeatures(ctx: AppContext, deps: FeatureDeps = {}): Feature[] {
  const exportRunner = deps.exportRunner ? { exportRunner: deps.exportRunner } : {};
  // Sites at their own host names (published projects, previews), filled by the publish feature.
  const registry = createSiteRegistry();
  registry.setDomains(ctx.stores.projects.list());
  // Reader sign-in (issue 40): its routes answer before the site's; the site listener and the
  // other content routes ask its `access` who a reader is. (`site` is only read per request.)
  const reader = createReaderAccessFeature(ctx, { projectForHost: (host) => site.siteFor(host)?.projectId ?? projectByDomain(reader.service.config(), host), siteForHost: (host) => site.siteFor(host) });
  const readerAccess = deps.readerAccess ?? reader.access;
  const site = createSiteFeature(ctx, { registry, readerAccess });
  const publish = createPublishFeature(ctx, { registry, ...exportRunner });
  const replica = createReplicaFeature(ctx, { service: publish.service, registry, reader: reader.service });
  // On a serving replica, followed projects' readers are checked with the publisher's deny list.
  if (replica.readerSessions) reader.service.followWith(replica.readerSessions);
  // A beacon counts for the project of the site its Host is answered from (on a replica: forwarded to the publisher).
  const resolveProject = hostAwareResolver(ctx.stores, site);
  const forward = replica.forwarder?.forward;
  // Reader analytics after search analytics: the latter's /v1/analytics limiter counts every
  // analytics request of an organization (one shared hourly limit) before either answers.
  const readers = createReaderAnalyticsFeature(ctx, { resolveProject, siteFor: (host) => site.siteFor(host), forward });
  const analytics = createAnalyticsFeature(ctx, { servedSite: () => site.current(), resolveProject, readerIngest: readers.ingest, ...(forward ? { forward } : {}) });
  const assistant = createAssistantFeature(ctx, { servedSite: () => site.current(), siteFor: (host) => site.siteFor(host), publishedSites: () => registry.publishedSites().values(), resolveProject, readerAccess });
  // The API playground's config and proxy under /_/, for the project of the site a request's Host names.
  const playground = createPlaygroundFeature(ctx, { servedProject: (host?: string) => site.siteFor(host)?.projectId ?? undefined });
  const staticExport = createStaticExportFeature(ctx, exportRunner);
  const agent = createAgentFeature(ctx, deps.agentWorkerEntry ? { workerEntry: deps.agentWorkerEntry } : {});
  // fix-broken-links works from what the last publish or static export reported.
  const exportReport = createExportReports({
    publishes: (projectId) => publish.service.history(projectId, 20).map((r) => ({ ...r, warnings: () => publish.service.warningsOf(r) })),
    exports: (projectId) => ctx.stores.exportJobs.listForProject(projectId, 20),
  });
  const automations = createAutomationsFeature(ctx, { kick: () => agent.kick(), exportReport });
  // The console is a client of the same services as the API (publish lanes, export queue, stores).
  const consoleFeature = createConsoleFeature(ctx, {
    exports: staticExport,
    site,
    publish: consolePublishAdapter(publish.service),
    // The web editor (issue 41): saves publish and preview through the same service and lanes.
    editor: { publish: publish.service, gitHostClient: createGitHostClient },
    readerAnalytics: createReaderSeries(ctx.db, () => ctx.clock.now()),
    automations: { configured: (project) => automations.configured(project.id), runNow: (project, automation, actor) => automations.runNow(project, automation, 'console', { actor }) },
    // What the site listener serves for the project (as app/console/served.ts chooses): its published site, else its single-site bundle.
    readerAccess: consoleReaderAccessAdapter(reader.service, (projectId) => {
      const published = registry.publishedSites().get(projectId);
      if (published) return published;
      const single = site.current();
      return single?.projectId === projectId ? single : undefined;
    }),
  });
  const features = [createCoreFeature(ctx), agent, automations, staticExport, publish, replica, analytics, readers, assistant, playground, consoleFeature, reader.feature, site];
  registerHealthMetrics(ctx, {
    features: () => features,
    servedSites: function* () {
      const bundle = site.current();
      if (bundle) yield { site: 'bundle', served: bundle };
      for (const [projectId, served] of registry.publishedSites()) yield { site: registry.domainOf(projectId) ?? projectId, served };
    },
  });
  return features;
}

/** A project whose configured domain is this Host (port dropped): reader sign-in works before its first publish too. */
function projectByDomain(config: AppContext['config'], host: string | undefined): string | undefined {
  if (!host) return undefined;
  const name = host.replace(/:\d+$/, '').toLowerCase();
  return config.projects.find((p) => p.domain.toLowerCase() === name)?.id;
}
