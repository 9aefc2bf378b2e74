import type { IncomingMessage } from 'node:http';
import type { ReaderView } from '../../renderer/access/contract.js';

/** Mintlify's `apiPlaygroundInputs` (deploy/authentication-setup.mdx, "User data format"). */
export interface ApiPlaygroundInputs {
  server?: Record<string, string>;
  header?: Record<string, unknown>;
  query?: Record<string, unknown>;
  cookie?: Record<string, unknown>;
  path?: Record<string, unknown>;
}

/** A signed-in reader as a session holds them: Mintlify's user data, minus `host`. */
export interface ReaderUser {
  groups: string[];
  /** What `user` is in MDX. */
  content: Record<string, unknown>;
  apiPlaygroundInputs?: ApiPlaygroundInputs;
  /** Seconds since the epoch at which the session ends at the latest (`expiresAt`), or null. */
  expiresAt: number | null;
}

/**
 * Reader sign-in as the site listener and the other content routes see it (docs/reader-access.md).
 * Implemented by app/reader-access/; every call is synchronous because the site's hot path asks.
 */
export interface ReaderAccess {
  /** Whether the project has `auth` configured. */
  enabled(projectId: string): boolean;
  /** The reader behind the request's session cookie for that project; null when signed out, expired or revoked. */
  reader(req: IncomingMessage, projectId: string): ReaderUser | null;
  /** `reader` as an access view (ANONYMOUS when signed out). */
  view(req: IncomingMessage, projectId: string): ReaderView;
  /** Where a signed-out reader who asked for `wanted` (path and query) is sent to sign in: a 302 target. */
  signInUrl(projectId: string, wanted: string): string;
}
