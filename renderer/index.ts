/** The renderer's public API: everything the app (CLI, export jobs) uses comes from here. */
export { exportSite, ExportError, formatFailure, gitCommit, type ExportOptions, type ExportResult } from './pipeline.js';
export { createRenderPool, type RenderPool, type RenderPoolOptions } from './pool/render-pool.js';
export { loadSite, type LoadedSite } from './load/index.js';
export { planSite, selectPaths, UnknownPathsError, type PlanOptions } from './plan/index.js';
export { SEARCH_ROOT } from './search-options.js';
export { MANIFEST_PATH } from './write/manifest.js';
export { RenderError } from './types.js';
export type {
  BuildWarning,
  BundleManifest,
  ExportProgress,
  ManifestFile,
  RenderFailure,
  SitePlan,
} from './types.js';
