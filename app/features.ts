import type { AppContext } from './context.js';
import type { Feature } from './feature.js';
import { createCoreFeature } from './core/feature.js';
import { createAgentFeature } from './agent/feature.js';
import { createSiteFeature } from './site/feature.js';
import { createAnalyticsFeature } from './analytics/feature.js';
import { createStaticExportFeature } from './static-export/feature.js';
import { createReaderAnalyticsFeature } from './reader-analytics/feature.js';
import { servedSiteProjectResolver } from './analytics/project-resolver.js';
import { createAssistantFeature } from './assistant/feature.js';
import { createPlaygroundFeature } from './site/playground-proxy.js';

/**
 * Every slice of the appliance, in mounting order. The site feature comes last: it answers
 * everything the others (event beacons) did not.
 */
export function createFeatures(ctx: AppContext): Feature[] {
  const site = createSiteFeature(ctx);
  // Beacons are recorded only for the project of the site this listener serves.
  // Reader analytics after search analytics: the latter's /v1/analytics limiter counts every
  // analytics request of an organization (one shared hourly limit) before either answers.
  const readers = createReaderAnalyticsFeature(ctx, { resolveProject: servedSiteProjectResolver(ctx.stores, () => site.current()) });
  const analytics = createAnalyticsFeature(ctx, { servedSite: () => site.current(), readerIngest: readers.ingest });
  const assistant = createAssistantFeature(ctx, { servedSite: () => site.current() });
  // The API playground's config and proxy under /_/, for the served site's project.
  const playground = createPlaygroundFeature(ctx, { servedProject: () => site.current()?.projectId });
  return [createCoreFeature(ctx), createAgentFeature(ctx), createStaticExportFeature(ctx), analytics, readers, assistant, playground, site];
}
