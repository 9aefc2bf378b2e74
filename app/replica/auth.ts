import type { Request, RequestHandler, Response } from 'express';
import { replicaKeyReaches, type AdminKey } from '../../data/stores/admin-keys.js';
import type { Stores } from '../../data/stores/index.js';
import { errors } from '../errors.js';

/**
 * The replica endpoints take only a replica key (`keys create --scopes replica`): the one scope
 * that reads active versions, downloads their bundles and forwards beacons. An admin key is
 * refused here (403), and a replica key is refused by every other operation (403). The key is
 * kept in `res.locals.replicaKey`: what it reaches is its organization's sites, or every
 * organization's for a key made with `--all-organizations` (`replicaKeyReaches`).
 */
export function requireReplicaKey(stores: Stores): RequestHandler {
  return (req, res, next) => {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(req.get('authorization') ?? '');
    if (!req.get('authorization')) return next(errors.missingKey());
    if (!match) return next(errors.invalidKey());
    const check = stores.adminKeys.check(match[1]!);
    if (!check.ok) return next(check.reason === 'revoked' ? errors.revokedKey() : check.reason === 'expired' ? errors.expiredKey() : errors.invalidKey());
    if (!check.key.scopes.includes('replica')) return next(errors.missingScope('replica'));
    res.locals.replicaKey = check.key;
    next();
  };
}

/** The replica key `requireReplicaKey` accepted for this request. */
export function replicaKeyOf(res: Response): AdminKey {
  return res.locals.replicaKey as AdminKey;
}

/**
 * Whether an Authorization header carries a valid replica key that reaches the project's
 * organization (beacons a replica forwards: app/analytics/ingest-router.ts).
 */
export function carriesReplicaKey(stores: Stores, req: Request, projectId: string): boolean {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(req.get('authorization') ?? '');
  if (!match) return false;
  const check = stores.adminKeys.check(match[1]!);
  const orgId = stores.projects.get(projectId)?.orgId;
  return check.ok && orgId !== undefined && replicaKeyReaches(check.key, orgId);
}
