import { Router, type Request, type Response } from 'express';
import { ALL_SCOPES, type AdminKey, type Scope } from '../../../data/stores/admin-keys.js';
import type { AppContext } from '../../context.js';
import { ApiError, invalidInput } from '../../errors.js';
import { audit } from '../audit.js';
import { withNotice } from '../notices.js';
import { requireWrite } from '../guards.js';
import { renderPage } from '../render.js';
import { arraySource, buildTable, tableCsv, type TableSpec } from '../table.js';
import { timeCell } from '../time.js';
import { sendCsv } from './csv.js';

const MAX_EXPIRY_DAYS = 3650;

/**
 * The organization's admin keys: list, create (the key is shown once, in the response to the
 * form), revoke. Creating and revoking need the write role; a read role sees the list only.
 */
export function createKeysRouter(ctx: AppContext): Router {
  const router = Router({ mergeParams: true });

  const show = (req: Request, res: Response, created: { key: string; record: AdminKey } | null, status = 200, formError: string | null = null) => {
    const org = res.locals.org;
    const base = `/console/orgs/${encodeURIComponent(org.id)}/keys`;
    const nowDate = ctx.clock.now();
    const now = nowDate.getTime();
    const state = (k: AdminKey) => (k.revokedAt ? 'revoked' : k.expiresAt && Date.parse(k.expiresAt) <= now ? 'expired' : 'active');
    const spec: TableSpec<AdminKey> = {
      id: 'keys',
      caption: 'Admin keys',
      empty: 'This organization has no keys. Create one below, or on the host: docs-appliance keys create --org <id>.',
      defaultSort: 'created',
      defaultDir: 'desc',
      source: arraySource(ctx.stores.adminKeys.list(org.id)),
      columns: [
        { key: 'id', label: 'Id', value: (k) => k.id, cell: (k) => ({ code: k.id }) },
        { key: 'prefix', label: 'Starts with', value: (k) => `${k.prefix}…`, cell: (k) => ({ code: `${k.prefix}…` }) },
        { key: 'label', label: 'Label', value: (k) => k.label },
        { key: 'scopes', label: 'Scopes', value: (k) => k.scopes.join(', ') },
        { key: 'state', label: 'State', value: state },
        { key: 'created', label: 'Created', value: (k) => k.createdAt, cell: (k) => timeCell(k.createdAt, nowDate) },
        { key: 'expires', label: 'Expires', value: (k) => k.expiresAt ?? 'never', cell: (k) => (k.expiresAt ? timeCell(k.expiresAt, nowDate) : 'never') },
        { key: 'used', label: 'Last used', value: (k) => k.lastUsedAt, cell: (k) => timeCell(k.lastUsedAt, nowDate) ?? 'never' },
        ...(res.locals.role === 'write'
          ? [
              {
                key: 'action',
                label: 'Action',
                csv: false,
                sortable: false,
                value: () => null,
                cell: (k: AdminKey) => (state(k) === 'active' ? { action: `${base}/${k.id}/revoke`, text: 'Revoke', label: `Revoke ${k.id}`, danger: true } : null),
              },
            ]
          : []),
      ],
    };
    if (req.query.csv === spec.id) return sendCsv(res, `${org.id}-keys.csv`, tableCsv(spec, req.query));
    renderPage(res, 'keys', { title: `${org.name} — keys`, section: 'keys', table: buildTable(spec, req.query, base), created, formError, base }, status);
  };

  router.get('/keys', (req, res) => show(req, res, null));

  router.post('/keys', requireWrite(), (req, res) => {
    const org = res.locals.org;
    const body = (req.body ?? {}) as Record<string, unknown>;
    const raw = body.scopes;
    const scopes = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String);
    const problems: string[] = [];
    if (scopes.length === 0) problems.push('choose at least one scope');
    if (scopes.some((s) => !(ALL_SCOPES as readonly string[]).includes(s))) problems.push('scopes are read and write');
    const label = typeof body.label === 'string' ? body.label.trim() : '';
    if (label.length > 200) problems.push('the label is longer than 200 characters');
    const daysText = typeof body.expiresInDays === 'string' ? body.expiresInDays.trim() : '';
    const days = daysText === '' ? null : Number(daysText);
    if (days !== null && !(Number.isInteger(days) && days >= 1 && days <= MAX_EXPIRY_DAYS)) problems.push(`expiry is a whole number of days from 1 to ${MAX_EXPIRY_DAYS}, or empty for none`);
    if (problems.length) return show(req, res, null, 400, invalidInput('key', problems).message);
    const expiresAt = days === null ? null : new Date(ctx.clock.now().getTime() + days * 86_400_000);
    const created = ctx.stores.adminKeys.create({ orgId: org.id, scopes: scopes as Scope[], expiresAt, label: label || null });
    audit(ctx.stores, ctx.log, req, org.id, 'key.create', created.record.id, { scopes: created.record.scopes, expiresAt: created.record.expiresAt, label: created.record.label });
    show(req, res, created, 201);
  });

  router.post('/keys/:keyId/revoke', requireWrite(), (req, res) => {
    const org = res.locals.org;
    const key = ctx.stores.adminKeys.get(String(req.params.keyId));
    if (!key || key.orgId !== org.id) throw new ApiError(404, 'KEY_NOT_FOUND', 'No such key in this organization');
    const changed = ctx.stores.adminKeys.revoke(key.id);
    // Sessions signed in with the key end now (loadSession would also refuse them on their next request).
    const ended = ctx.stores.consoleSessions.endForKey(key.id);
    if (changed) audit(ctx.stores, ctx.log, req, org.id, 'key.revoke', key.id, { sessionsEnded: ended });
    res.redirect(303, withNotice(`/console/orgs/${encodeURIComponent(org.id)}/keys`, 'key-revoked'));
  });

  return router;
}
