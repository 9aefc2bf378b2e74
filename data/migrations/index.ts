import { foundation } from './001_foundation.js';
import { analytics } from './003_analytics.js';
import { staticExport } from './002_static_export.js';
import { agentJobs } from './004_agent.js';
import { analyticsBulk } from './005_analytics_bulk.js';
import { analyticsHourly } from './006_analytics_hourly.js';
import { exportKeepGoing } from './007_export_keep_going.js';
import { agentV1 } from './008_agent_v1.js';
import { publish } from './009_publish.js';
import { readerAnalytics } from './010_reader_analytics.js';
import { assistant } from './011_assistant.js';
import { consoleTables } from './012_console.js';
import { replicaKeyReach } from './013_replica_key_reach.js';
import { exportWarnings } from './014_export_warnings.js';
import { projectsGitRetired } from './015_projects_git_retired.js';
import { publishStages } from './016_publish_stages.js';
import { automations } from './017_automations.js';
import { readerSessions } from './018_reader_sessions.js';
import { readerSessionEnds } from './019_reader_session_ends.js';

export interface Migration {
  /** Applied in order; the database's `PRAGMA user_version` records the last one applied. */
  id: number;
  name: string;
  up: string;
}

/** Every migration, in order. Add new ones at the end with the next number; never edit an applied one. */
export const migrations: readonly Migration[] = [foundation, analytics, staticExport, agentJobs, analyticsBulk, analyticsHourly, exportKeepGoing, agentV1, publish, readerAnalytics, assistant, consoleTables, replicaKeyReach, exportWarnings, projectsGitRetired, publishStages, automations, readerSessions, readerSessionEnds];
