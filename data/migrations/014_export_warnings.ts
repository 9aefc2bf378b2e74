import type { Migration } from './index.js';

/**
 * An export job's render warnings (issue 38): counted by kind and the first ones listed, as JSON
 * (app/loader/render-warnings.ts WarningSummary), so the job status shows them without opening
 * the bundle. NULL for jobs finished before this.
 */
export const exportWarnings: Migration = {
  id: 14,
  name: 'export jobs: render warnings',
  up: `
    ALTER TABLE export_jobs ADD COLUMN warnings TEXT;
  `,
};
