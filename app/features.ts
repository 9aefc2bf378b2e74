import type { AppContext } from './context.js';
import type { Feature } from './feature.js';
import { createCoreFeature } from './core/feature.js';
import { createAgentFeature } from './agent/feature.js';
import { createSiteFeature } from './site/feature.js';
import { createAnalyticsFeature } from './analytics/feature.js';
import { createStaticExportFeature } from './static-export/feature.js';
import { createConsoleFeature } from './console/feature.js';

/**
 * Every slice of the appliance, in mounting order. The site feature comes last: it answers
 * everything the others (event beacons) did not.
 */
export function createFeatures(ctx: AppContext): Feature[] {
  const site = createSiteFeature(ctx);
  // Beacons are recorded only for the project of the site this listener serves.
  const analytics = createAnalyticsFeature(ctx, { servedSite: () => site.current() });
  const staticExport = createStaticExportFeature(ctx);
  // Publishing (issue 19) and reader analytics (issue 20) join the console through its deps once wired.
  const consoleFeature = createConsoleFeature(ctx, { exports: staticExport, site });
  return [createCoreFeature(ctx), createAgentFeature(ctx), staticExport, analytics, consoleFeature, site];
}
