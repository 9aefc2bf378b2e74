import type { Migration } from './index.js';

/**
 * Export jobs that keep going past pages that fail (issue 15): the option as requested, and the
 * pages the finished export left out (JSON: `{path, file, line?, column?, message}[]`).
 */
export const exportKeepGoing: Migration = {
  id: 7,
  name: 'static export: keepGoing and the failures it lists',
  up: `
    ALTER TABLE export_jobs ADD COLUMN keep_going INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE export_jobs ADD COLUMN failures TEXT;
  `,
};
