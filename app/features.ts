import type { AppContext } from './context.js';
import type { Feature } from './feature.js';
import { createCoreFeature } from './core/feature.js';
import { createAgentFeature } from './agent/feature.js';
import { createSiteFeature } from './site/feature.js';
import { createAnalyticsFeature } from './analytics/feature.js';
import { createStaticExportFeature } from './static-export/feature.js';
import { createPublishFeature } from './publish/feature.js';
import { createSiteRegistry } from './sites/registry.js';
import { hostAwareResolver } from './sites/beacon-project.js';
import { createReplicaFeature } from './replica/feature.js';

/**
 * Every slice of the appliance, in mounting order. The site feature comes last: it answers
 * everything the others (event beacons) did not.
 */
export function createFeatures(ctx: AppContext): Feature[] {
  // Sites at their own host names (published projects, previews), filled by the publish feature.
  const registry = createSiteRegistry();
  registry.setDomains(ctx.stores.projects.list());
  const site = createSiteFeature(ctx, { registry });
  const publish = createPublishFeature(ctx, { registry });
  const replica = createReplicaFeature(ctx, { service: publish.service, registry });
  // Beacons are recorded only for the project of the site this listener serves (on a replica: forwarded to the publisher).
  const forward = replica.forwarder?.forward;
  const analytics = createAnalyticsFeature(ctx, { servedSite: () => site.current(), resolveProject: hostAwareResolver(ctx.stores, site), ...(forward ? { forward } : {}) });
  return [createCoreFeature(ctx), createAgentFeature(ctx), createStaticExportFeature(ctx), publish, replica, analytics, site];
}
