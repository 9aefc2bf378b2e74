/**
 * The publish service's public API, for the console and other callers inside the appliance:
 * `publish`, `preview`, `rollback`, `status`, `history`, `versions`, `previews` (each returns at
 * once; the work runs in the project's lane). Take it from the mounted feature:
 * `(features.find((f) => f.name === 'publish') as PublishFeature).service`. See docs/publishing.md.
 */
export type { PublishFeature } from './feature.js';
export { PublishRequestError, type KeptVersion, type PreviewInfo, type PublishService } from './service.js';
export { toUpdateStatus } from './status-view.js';
export type { PublishRecord } from '../../data/stores/publishes.js';
