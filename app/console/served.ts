import type { Project } from '../../data/stores/projects.js';
import { EXAMPLE_SOURCE } from '../site/example-default.js';
import type { ConsoleDeps } from './router.js';

/** Where a project's served site came from. */
export type ServedFrom = 'published' | 'bundle' | 'example';

export interface ServedVersion {
  version: string;
  /** When it was activated; null when the appliance does not know (a pointer restored without it). */
  since: string | null;
  from: ServedFrom;
}

/** How the overview names each origin. */
export const SERVED_FROM_LABEL: Record<ServedFrom, string> = {
  published: 'published',
  bundle: 'configured bundle (staticExport)',
  example: 'first-start example',
};

/**
 * What the site listener serves at a project's domain right now, as it chooses (app/sites/choose.ts):
 * the project's published site when it has one, else the single-site bundle when that bundle is the
 * project's own (a configured `staticExport` bundle, or the first-start example). Read from what
 * is in memory, not from the pointers on disk, which a CLI rollback changes before the next SIGHUP.
 */
export function servedVersion(project: Project, deps: Pick<ConsoleDeps, 'publish' | 'site'>): ServedVersion | undefined {
  const published = deps.publish?.served(project);
  if (published) return { version: published.version, since: published.activatedAt, from: 'published' };
  const single = deps.site?.loader.active;
  if (!single || single.projectId !== project.id) return undefined;
  return { version: single.version, since: single.activatedAt || null, from: single.source === EXAMPLE_SOURCE ? 'example' : 'bundle' };
}
