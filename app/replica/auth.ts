import type { RequestHandler } from 'express';
import type { Stores } from '../../data/stores/index.js';
import { errors } from '../errors.js';

/**
 * The replica endpoints take only a replica key (`keys create --scopes replica`): the one scope
 * that reads active versions, downloads their bundles and forwards beacons. An admin key is
 * refused here (403), and a replica key is refused by every other operation (403).
 */
export function requireReplicaKey(stores: Stores): RequestHandler {
  return (req, _res, next) => {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(req.get('authorization') ?? '');
    if (!req.get('authorization')) return next(errors.missingKey());
    if (!match) return next(errors.invalidKey());
    const check = stores.adminKeys.check(match[1]!);
    if (!check.ok) return next(check.reason === 'revoked' ? errors.revokedKey() : check.reason === 'expired' ? errors.expiredKey() : errors.invalidKey());
    if (!check.key.scopes.includes('replica')) return next(errors.missingScope('replica'));
    next();
  };
}

/** Whether an Authorization header carries a valid replica key (beacons a replica forwards: app/analytics/ingest-router.ts). */
export function carriesReplicaKey(stores: Stores, authorization: string | undefined): boolean {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) return false;
  const check = stores.adminKeys.check(match[1]!);
  return check.ok && check.key.scopes.includes('replica');
}
