import fs from 'node:fs';
import path from 'node:path';
import type { Project } from '../../data/stores/projects.js';
import type { BundleAccess } from '../../renderer/access/contract.js';
import type { ReaderAccessService } from '../reader-access/service.js';
import type { ConsoleReaderAccess } from './services.js';

type Served = NonNullable<ReturnType<ConsoleReaderAccess['served']>>;

/**
 * The console's view of reader access (issue 40 point 6): the method from the reader-access
 * service's current config, the served bundle's page counts from its manifest, and the service's
 * session list and audited revoke. `servedSite` names the bundle the site listener serves for the
 * project now (published site, else the single-site bundle when it is the project's).
 */
export function consoleReaderAccessAdapter(
  service: Pick<ReaderAccessService, 'authed' | 'listSessions' | 'revokeSession'>,
  servedSite: (projectId: string) => { readonly root: string } | undefined,
): ConsoleReaderAccess {
  // A served version's manifest never changes: read once per served site (the object changes with each activation).
  const cache = new WeakMap<object, Served>();
  return {
    method: (project) => service.authed(project.id)?.auth.method,
    served(project) {
      const site = servedSite(project.id);
      if (!site) return undefined;
      let hit = cache.get(site);
      if (!hit) cache.set(site, (hit = accessOfManifest(site.root)));
      return hit;
    },
    // Only what the table shows: the user data (`content`, playground inputs) stays out of the console.
    sessions: (project) =>
      service.listSessions(project.id).map((s) => ({ id: s.id, method: s.method, groups: s.groups, createdAt: s.createdAt, lastSeenAt: s.lastSeenAt, expiresAt: s.expiresAt })),
    revoke: (project, id, actor) => service.revokeSession(project.id, id, actor),
  };
}

/** The manifest's `access` as the console shows it; a bundle without a readable manifest has no map. */
function accessOfManifest(root: string): Served {
  let access: unknown;
  try {
    access = (JSON.parse(fs.readFileSync(path.join(root, 'manifest.json'), 'utf8')) as { access?: unknown }).access;
  } catch {
    return { rendered: false };
  }
  if (access === undefined || access === null) return { rendered: false };
  const pages = typeof access === 'object' ? (access as { pages?: unknown }).pages : undefined;
  return { rendered: true, pages: pagesOf(pages) };
}

function pagesOf(raw: unknown): BundleAccess['pages'] | null {
  if (!raw || typeof raw !== 'object') return null;
  const p = raw as Record<string, unknown>;
  const n = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);
  const [pub, signedIn, groups] = [n(p.public), n(p.signedIn), n(p.groups)];
  return pub === undefined || signedIn === undefined || groups === undefined ? null : { public: pub, signedIn, groups };
}
