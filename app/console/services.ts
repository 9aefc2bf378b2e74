import type { Project } from '../../data/stores/projects.js';

/**
 * What the console needs from publishing (issue 19). Optional: without it the project page's
 * publish section says "Publishing is not available" and the overview shows no publishes. The
 * wiring passes an adapter over the publish service once both are merged.
 */
export interface ConsolePublishService {
  /** Newest first. */
  history(project: Project, limit: number): PublishRecord[];
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
  status: string;
  startedAt: string;
  finishedAt: string | null;
  error: string | null;
  /** True for a publish whose version is the one served now (no roll-back button). */
  current: boolean;
}

/**
 * Reader analytics (issue 20) for the analytics page. Optional: absent, the page says they are
 * not available. Each series becomes one chart and one table.
 */
export interface ConsoleReaderAnalytics {
  series(project: Project, days: number): { id: string; title: string; unit?: string; kind: 'bar' | 'line'; points: { label: string; value: number }[] }[];
}

export interface ConsoleServices {
  publish?: ConsolePublishService | undefined;
  readerAnalytics?: ConsoleReaderAnalytics | undefined;
}
