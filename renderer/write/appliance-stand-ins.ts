/**
 * Static stand-ins for the appliance's own endpoints, written into every bundle. The appliance
 * answers everything under `/_/` itself and never serves a bundle file there
 * (app/site/site-handler.ts), so these are seen only where the bundle is served as plain files
 * (an nginx, an object store, `python -m http.server`): there the page scripts' one status
 * request (site.js) finds `appliance: false` and every script that would talk to the appliance
 * (assistant, page menu, page views, search analytics, playground) stays quiet, with no failed
 * request in the browser's console (issue 39 class 10).
 */
export const APPLIANCE_STAND_INS: Readonly<Record<string, string>> = {
  // GET /_/assistant: the appliance answers `{enabled, mcp}` (app/assistant/site-router.ts).
  '_/assistant': `${JSON.stringify({ enabled: false, mcp: null, appliance: false })}\n`,
};
