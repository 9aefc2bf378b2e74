import type { RequestHandler, Request } from 'express';
import type { Stores } from '../../data/stores/index.js';
import type { Project } from '../../data/stores/projects.js';
import { errors } from '../errors.js';
import type { Scope } from '../../data/stores/admin-keys.js';

/**
 * Bearer admin keys (DESIGN 2). Every bad-key case is a 401 with WWW-Authenticate; a key without
 * the scope the method needs (GET/HEAD → read, anything else → write) is a 403. `write` implies
 * `read`, as the hosted documentation says ("write allows every endpoint"): a CI key that starts
 * an export must be able to poll it.
 */
export function requireAdminKey(stores: Stores): RequestHandler {
  return (req, _res, next) => {
    const header = req.get('authorization');
    if (!header) return next(errors.missingKey());
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
    if (!match) return next(errors.invalidKey());
    const check = stores.adminKeys.check(match[1]!);
    if (!check.ok) {
      if (check.reason === 'revoked') return next(errors.revokedKey());
      if (check.reason === 'expired') return next(errors.expiredKey());
      return next(errors.invalidKey());
    }
    const org = stores.organizations.get(check.key.orgId);
    if (!org) return next(errors.invalidKey());
    const needed: Scope = req.method === 'GET' || req.method === 'HEAD' ? 'read' : 'write';
    if (!scopeAllows(check.key.scopes, needed)) return next(errors.missingScope(needed));
    req.auth = { key: check.key, org };
    next();
  };
}

/** The project named in the path, if the caller's organization owns it; 404 otherwise (no probing). */
export function projectFor(req: Request, stores: Stores, projectId: string): Project {
  const orgId = req.auth?.org.id;
  const project = orgId ? stores.projects.getForOrg(projectId, orgId) : undefined;
  if (!project) throw errors.projectNotFound();
  return project;
}

export function scopeAllows(scopes: readonly Scope[], needed: Scope): boolean {
  return scopes.includes(needed) || (needed === 'read' && scopes.includes('write'));
}
