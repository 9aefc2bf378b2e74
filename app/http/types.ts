import type { AdminKey } from '../../data/stores/admin-keys.js';
import type { Organization } from '../../data/stores/organizations.js';

export interface AuthInfo {
  key: AdminKey;
  org: Organization;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Correlates the access log, error log and the X-Request-Id response header. */
      id: string;
      /** Set by requireAdminKey. */
      auth?: AuthInfo;
    }
  }
}

export {};
