import type { Config } from '../../config/schema.js';
import { withConnectOrigins } from '../../renderer/csp.js';
import { playgroundOf, playgroundOrigins } from './playground-proxy.js';

/**
 * The policy a project's site is served with: the operator's `site.contentSecurityPolicy`, its
 * connect-src extended by the project's playground origins. The site listener sends it as a
 * header; exports and publishes write it into every page (renderer/csp.ts), so both agree.
 */
export function siteCsp(config: Readonly<Config>, projectId: string | null | undefined): string {
  return withConnectOrigins(config.site.contentSecurityPolicy, playgroundOrigins(playgroundOf(config, projectId)));
}
