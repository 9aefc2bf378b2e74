import type { Db } from '../db.js';
import { createAdminKeyStore } from './admin-keys.js';
import { createAgentJobStore } from './agent-jobs.js';
import { createAutomationRunStore } from './automation-runs.js';
import { createConsoleAuditStore } from './console-audit.js';
import { createConsoleSessionStore } from './console-sessions.js';
import { createExportJobStore } from './export-jobs.js';
import { createOrganizationStore } from './organizations.js';
import { createProjectStore } from './projects.js';
import { createRateLimitStore } from './rate-limits.js';
import { createReaderSessionStore } from './reader-sessions.js';
import { createReplicaDeniedSessionStore } from './replica-denied-sessions.js';
import { createSettingsStore } from './settings.js';

/** Every store over one connection. Feature stores are added here, one line each. */
export function createStores(db: Db, now: () => Date) {
  const settings = createSettingsStore(db);
  return {
    organizations: createOrganizationStore(db, now),
    projects: createProjectStore(db, now),
    adminKeys: createAdminKeyStore(db, now),
    rateLimits: createRateLimitStore(db, now),
    settings,
    agentJobs: createAgentJobStore(db, now),
    automationRuns: createAutomationRunStore(db, now),
    exportJobs: createExportJobStore(db, now),
    consoleSessions: createConsoleSessionStore(db, now),
    consoleAudit: createConsoleAuditStore(db, now),
    readerSessions: createReaderSessionStore(db, now),
    replicaDeniedSessions: createReplicaDeniedSessionStore(db, now, settings),
  };
}

export type Stores = ReturnType<typeof createStores>;
