import type { IncomingMessage } from 'node:http';
import type crypto from 'node:crypto';
import type { Config, ProjectConfig } from '../../config/schema.js';
import type { ReaderAuthConfig } from '../../config/reader-auth.js';
import { ANONYMOUS, type ReaderView } from '../../renderer/access/contract.js';
import type { AppContext } from '../context.js';
import { loadJwtPublicKey } from './jwt.js';
import { withRedirect } from './redirect.js';
import { createReaderSessions } from './sessions.js';
import type { ReaderAccess, ReaderUser } from './types.js';
import type { ReplicaReaderSessions } from '../replica/reader-sessions.js';

export interface AuthedProject {
  project: ProjectConfig;
  auth: ReaderAuthConfig;
}

/**
 * The projects with `auth` of the current config, their JWT keys read once (the config loader
 * already checked them), and the ReaderAccess service the site listener asks.
 */
export function createReaderAccessService(ctx: AppContext) {
  const sessions = createReaderSessions(ctx);
  let projects = new Map<string, AuthedProject>();
  let keys = new Map<string, crypto.KeyObject>();
  let current: Readonly<Config> = ctx.config;
  /** On a serving replica: the projects it follows with reader access, checked without their rows. */
  let followed: ReplicaReaderSessions | undefined;

  const configure = (config: Readonly<Config>): void => {
    const nextProjects = new Map<string, AuthedProject>();
    const nextKeys = new Map<string, crypto.KeyObject>();
    for (const p of config.projects) {
      if (!p.auth) continue;
      nextProjects.set(p.id, { project: p, auth: p.auth });
      if (p.auth.method === 'jwt' && p.auth.jwt) nextKeys.set(p.id, loadJwtPublicKey(p.auth.jwt.publicKeyFile));
    }
    projects = nextProjects;
    keys = nextKeys;
    current = config;
  };
  configure(ctx.config);

  const reader = (req: IncomingMessage, projectId: string) => {
    const p = projects.get(projectId);
    if (p) return sessions.reader(req, projectId, p.auth);
    return followed?.reader(req, projectId) ?? null;
  };

  const access: ReaderAccess = {
    enabled: (projectId) => projects.has(projectId) || (followed?.enabled(projectId) ?? false),
    reader(req, projectId): ReaderUser | null {
      const r = reader(req, projectId);
      if (!r) return null;
      return { groups: r.groups, content: r.content, ...(r.apiPlaygroundInputs ? { apiPlaygroundInputs: r.apiPlaygroundInputs } : {}), expiresAt: r.expiresAt };
    },
    view(req, projectId): ReaderView {
      const r = reader(req, projectId);
      return r ? { signedIn: true, groups: new Set(r.groups) } : ANONYMOUS;
    },
    signInUrl(projectId, wanted) {
      if (!projects.has(projectId) && followed?.enabled(projectId)) return followed.signInUrl(projectId, wanted)!;
      const jwt = projects.get(projectId)?.auth.jwt;
      // One portal: straight there, as Mintlify does; several: the chooser on /login.
      if (jwt?.loginUrl) return withRedirect(jwt.loginUrl, wanted);
      return `/login?redirect=${encodeURIComponent(wanted)}`;
    },
  };

  return {
    access,
    sessions,
    configure,
    /** The config last loaded (SIGHUP passes a new one; ctx.config stays the first). */
    config: () => current,
    authed: (projectId: string | undefined): AuthedProject | undefined => (projectId ? projects.get(projectId) : undefined),
    keyOf: (projectId: string) => keys.get(projectId),
    /** Every project with auth (the cron's pruning). */
    all: () => projects.values(),
    /** The console's list of a project's live sessions (most recently used first). */
    listSessions(projectId: string) {
      const p = projects.get(projectId);
      return p ? ctx.stores.readerSessions.listActive(projectId, p.auth.session.idleMinutes * 60_000) : [];
    },
    /** The console's revoke, audited under who did it; false when there was no such session in the project. */
    revokeSession(projectId: string, id: string, actor: string): boolean {
      const p = projects.get(projectId);
      if (!p || !ctx.stores.readerSessions.revoke(projectId, id)) return false;
      ctx.stores.consoleAudit.record({ orgId: p.project.orgId, actor, action: 'reader.session-revoked', target: projectId, detail: { projectId, session: id.slice(0, 12) } });
      return true;
    },
    /** A serving replica's check of the projects it follows (app/replica/reader-sessions.ts). */
    followWith(replica: ReplicaReaderSessions): void {
      followed = replica;
    },
    /** Whether this replica follows the project with reader access (it has no config of it: /_/reader/user only). */
    followedWithAccess: (projectId: string | undefined): boolean => !!projectId && !projects.has(projectId) && (followed?.enabled(projectId) ?? false),
    /** The reader with the session id (sign-out, /_/reader/user). */
    readerWithSession: reader,
  };
}

export type ReaderAccessService = ReturnType<typeof createReaderAccessService>;
