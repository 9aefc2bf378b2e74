import type { WarningSummary } from '../loader/render-warnings.js';
import type { Project } from '../../data/stores/projects.js';
import type { AutomationConfig } from '../../config/automations.js';
import type { PublishStatus } from '../../data/stores/publishes.js';

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

export interface ConsoleServices {
  publish?: ConsolePublishService | undefined;
  automations?: ConsoleAutomations | undefined;
  readerAnalytics?: ConsoleReaderAnalytics | undefined;
}
