import type { Migration } from './index.js';

/**
 * A publish's time split by stage (issue 43): where a publish's seconds went — the source
 * (checkout or fetch), the export (and the renderer's own stages inside it), the bundle's
 * verification, the activation — as JSON. NULL for publishes that ended before this.
 */
export const publishStages: Migration = {
  id: 16,
  name: 'publishes: time by stage',
  up: `
    ALTER TABLE publishes ADD COLUMN stages TEXT;
  `,
};
