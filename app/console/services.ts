import type { WarningSummary } from '../loader/render-warnings.js';
import type { Project } from '../../data/stores/projects.js';
import type { AutomationConfig } from '../../config/automations.js';
import type { PublishStatus } from '../../data/stores/publishes.js';
import type { ReaderMethod } from '../../data/stores/reader-sessions.js';
import type { BundleAccess } from '../../renderer/access/contract.js';

/**
 * What the console needs from publishing (issue 19). Optional: without it the project page's
 * publish section says "Publishing is not available" and the overview shows no publishes. The
 * wiring passes an adapter over the publish service once both are merged.
 */
export interface ConsolePublishService {
  /** Newest first. */
  history(project: Project, limit: number): PublishRecord[];
  /** The project's published site as it is served now, and since when; undefined when it has none. */
  served(project: Project): { version: string; activatedAt: string | null } | undefined;
  /** The render warnings of the version served now (undefined when nothing is published). */
  servedWarnings(project: Project): WarningSummary | undefined;
  /** Starts a publish of the project's source; the promise settles when it is queued. */
  publishNow(project: Project, actor: string): Promise<{ id: string }>;
  /**
   * Serves an earlier publish's version again. `publishId` comes from the browser: the service must
   * refuse one that is not this project's (throw an ApiError, e.g. 404), as the API would.
   */
  rollBack(project: Project, publishId: string, actor: string): Promise<{ id: string }>;
}

export interface PublishRecord {
  id: string;
  version: string | null;
  commit: string | null;
  /** The publish service's own values: a page comparing against another one fails the type check. */
  status: PublishStatus;
  startedAt: string;
  finishedAt: string | null;
  error: string | null;
  /** True for a publish whose version is the one served now. */
  current: boolean;
  /** Rolling back to it would change what is served: it succeeded, its version is still kept, and another is served. */
  canRollBackTo: boolean;
}

/**
 * Reader analytics (issue 20) for the analytics page. Optional: absent, the page says they are
 * not available. Each series becomes one chart and one table.
 */
export interface ConsoleReaderAnalytics {
  series(project: Project, days: number): { id: string; title: string; unit?: string; kind: 'bar' | 'line'; points: { label: string; value: number }[] }[];
}

/**
 * Automations (issue 42) for the project page: what is configured now, and a run started by a
 * person (the same checks as the API trigger; it throws the same ApiErrors).
 */
export interface ConsoleAutomations {
  configured(project: Project): readonly AutomationConfig[];
  runNow(project: Project, automation: AutomationConfig, actor: string): Promise<{ run: { id: string }; job: { id: string } }>;
}

/**
 * Reader access (issue 40 point 6) for the project page: the method configured now, what the served
 * bundle was rendered with, and the live reader sessions. Optional: absent, the page shows no
 * reader-access section.
 */
export interface ConsoleReaderAccess {
  /** `projects[].auth.method` of the config loaded now; undefined when the project has no `auth` (public). */
  method(project: Project): ReaderMethod | undefined;
  /**
   * The served bundle's access map as the console shows it: undefined when nothing is served for the
   * project, `{ rendered: false }` when the bundle carries no map (rendered before `auth` was set),
   * else its page counts (null when the map's counts are unreadable).
   */
  served(project: Project): { rendered: false } | { rendered: true; pages: BundleAccess['pages'] | null } | undefined;
  /** Live sessions, most recently used first: no identity (no user data), only what the table shows. */
  sessions(project: Project): ConsoleReaderSession[];
  /** Ends a listed session (`id` from the browser: only within this project); audited by the service. False: no such live session. */
  revoke(project: Project, id: string, actor: string): boolean;
}

export interface ConsoleReaderSession {
  /** The listed id (SHA-256 of the cookie's session id): what revoke takes. */
  id: string;
  method: ReaderMethod;
  groups: string[];
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
}

export interface ConsoleServices {
  publish?: ConsolePublishService | undefined;
  automations?: ConsoleAutomations | undefined;
  readerAnalytics?: ConsoleReaderAnalytics | undefined;
  readerAccess?: ConsoleReaderAccess | undefined;
}
