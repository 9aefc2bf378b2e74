import type { Request } from 'express';
import type { Stores } from '../../data/stores/index.js';
import type { Logger } from '../logger.js';

/** Who the audit log names for this request's session. */
export function actorOf(req: Request): string {
  const s = req.consoleUser?.session;
  if (!s) return 'anonymous';
  return s.kind === 'key' ? s.displayName : `${s.displayName} (sso)`;
}

/** Records a console change (who, what, when) and logs it; called after the change succeeded. */
export function audit(stores: Stores, log: Logger, req: Request, orgId: string, action: string, target: string, detail?: Record<string, unknown>): void {
  const entry = stores.consoleAudit.record({ orgId, actor: actorOf(req), action, target, detail: detail ?? null });
  log.info({ reqId: req.id, audit: entry.id, org: orgId, action, target }, 'console change');
}
