import type { Migration } from './index.js';

/**
 * What a replica key follows (issue 37): its own organization's sites, or, when made with
 * `keys create --scopes replica --all-organizations`, every organization's. Keys made before
 * follow their own organization (the narrower reading; docs/publishing.md says how to widen one).
 */
export const replicaKeyReach: Migration = {
  id: 13,
  name: 'admin keys: replica keys for every organization',
  up: `
    ALTER TABLE admin_keys ADD COLUMN all_orgs INTEGER NOT NULL DEFAULT 0 CHECK (all_orgs IN (0, 1));
  `,
};
