/**
 * Reader access on the site listener (issue 40, docs/reader-access.md): a bundle whose manifest
 * carries `access` is enforced from that map alone, whatever the project's config says now (a
 * bundle rendered with `auth` whose project lost it still hides its restricted files: fail closed).
 */
import type { IncomingMessage } from 'node:http';
import { ANONYMOUS, canSee, parseMarked, type BundleAccess, type ReaderView, type Requirement } from '../../renderer/access/contract.js';
import type { ReaderAccess } from '../reader-access/types.js';

/** The manifest's `access`, as the site listener uses it (parsed once per served site). */
export interface SiteAccess {
  files: ReadonlyMap<string, Requirement>;
  defaultRequirement: Requirement;
  marked: ReadonlySet<string>;
  /** The renderer's page counts, for the console; null when unreadable, undefined for SIGN_IN_EVERYTHING (no map rendered). */
  pages?: BundleAccess['pages'] | null;
}

/**
 * `access` from a parsed manifest, or undefined when the manifest has none. A present but
 * unreadable map fails closed: every file needs sign-in, an unreadable requirement too.
 */
export function parseSiteAccess(raw: unknown): SiteAccess | undefined {
  if (raw === undefined || raw === null) return undefined;
  const closed: SiteAccess = { files: new Map(), defaultRequirement: 'signed-in', marked: new Set(), pages: null };
  if (typeof raw !== 'object' || Array.isArray(raw)) return closed;
  const a = raw as Record<string, unknown>;
  const defaultRequirement: Requirement = a.defaultRequirement === 'public' ? 'public' : 'signed-in';
  const files = new Map<string, Requirement>();
  if (a.files && typeof a.files === 'object' && !Array.isArray(a.files)) {
    for (const [rel, r] of Object.entries(a.files as Record<string, unknown>)) {
      // parseMarked checks the same grammar; an unknown value is a group nobody is in.
      const req = typeof r === 'string' ? parseMarked(encodeURIComponent(r)) : undefined;
      files.set(rel, req ?? 'groups:\u0000');
    }
  }
  const marked = new Set(Array.isArray(a.marked) ? (a.marked as unknown[]).filter((m): m is string => typeof m === 'string') : []);
  return { files, defaultRequirement, marked, pages: pagesOf(a.pages) };
}

function pagesOf(raw: unknown): BundleAccess['pages'] | null {
  if (!raw || typeof raw !== 'object') return null;
  const p = raw as Record<string, unknown>;
  const n = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);
  const [pub, signedIn, groups] = [n(p.public), n(p.signedIn), n(p.groups)];
  return pub === undefined || signedIn === undefined || groups === undefined ? null : { public: pub, signedIn, groups };
}

/**
 * What a bundle rendered without reader access gets once its project has `auth` (turned on since
 * the last publish): everything needs sign-in until a publish renders the access map, as
 * Mintlify's site redeploys when authentication is turned on. Fail closed, never a public window.
 */
export const SIGN_IN_EVERYTHING: SiteAccess = Object.freeze({ files: new Map<string, Requirement>(), defaultRequirement: 'signed-in' as Requirement, marked: new Set<string>() });

/** The requirement of one bundle path. The manifest lists every restricted path, the section index holds every page: never for readers. */
export function requirementFor(access: SiteAccess, rel: string): Requirement {
  // The section index holds every page's text (the assistant reads it server-side, per view).
  if (rel === 'manifest.json' || rel.startsWith('_retrieval/')) return 'groups:\u0000';
  return access.files.get(rel) ?? access.defaultRequirement;
}

export function visible(access: SiteAccess, rel: string, view: ReaderView): boolean {
  return canSee(requirementFor(access, rel), view);
}

/**
 * The reader's view for a site's project: from the ReaderAccess service when the project has
 * `auth`; otherwise nobody can be signed in, so ANONYMOUS (restricted files stay hidden).
 */
export function viewOf(readerAccess: ReaderAccess | undefined, req: IncomingMessage, projectId: string | null): ReaderView {
  if (!readerAccess || !projectId || !readerAccess.enabled(projectId)) return ANONYMOUS;
  return readerAccess.view(req, projectId);
}

/** Where a signed-out reader who asked for a restricted page signs in, or undefined (nobody can: 404). */
export function signInTarget(readerAccess: ReaderAccess | undefined, projectId: string | null, wanted: string): string | undefined {
  if (!readerAccess || !projectId || !readerAccess.enabled(projectId)) return undefined;
  return readerAccess.signInUrl(projectId, wanted);
}

/** A shared cache must never hand one reader's answer to another; revalidation stays as it was. */
export function privateCacheControl(cacheControl: string): string {
  return `private, ${cacheControl.replace(/^public,\s*/, '')}`;
}

/** Vary for an access site's answers: the session cookie decides the view. */
export function withCookieVary(vary: string | undefined): string {
  return vary ? `${vary}, Cookie` : 'Cookie';
}

/** Headers of an access site's answers that are not a file's (404, redirects, errors). */
export const PRIVATE_ANSWER = Object.freeze({ 'cache-control': 'private, no-cache', vary: 'Cookie' });

/** A key that is the same for two views that see the same fragments (the groups decide). */
export function viewKey(view: ReaderView): string {
  if ('all' in view && (view as { all?: boolean }).all) return '*';
  if (!view.signedIn) return '-';
  return `+${JSON.stringify([...view.groups].sort())}`;
}
