import { Router } from 'express';
import type { AuditEntry } from '../../../data/stores/console-audit.js';
import type { AppContext } from '../../context.js';
import { renderPage } from '../render.js';
import { auditSentence } from '../audit-sentences.js';
import { buildTable, tableCsv, type TableSpec } from '../table.js';
import { timeCell } from '../time.js';
import { sendCsv } from './csv.js';

/** The organization's audit log, newest first, paged in SQL. */
export function createAuditRouter(ctx: AppContext): Router {
  const router = Router({ mergeParams: true });
  router.get('/audit', (req, res) => {
    const org = res.locals.org;
    const base = `/console/orgs/${encodeURIComponent(org.id)}/audit`;
    const now = ctx.clock.now();
    const spec: TableSpec<AuditEntry> = {
      id: 'audit',
      caption: 'Audit log',
      empty: 'No changes recorded yet. Sign-ins, keys created or revoked, exports and publishes started here are listed as they happen.',
      defaultSort: 'at',
      defaultDir: 'desc',
      pageSize: 50,
      // Only time order: the log is read as a history, and SQL pages it without sorting it.
      source: (_sort, dir, offset, limit) => ({
        rows: ctx.stores.consoleAudit.page({ orgId: org.id, limit, offset, ascending: dir === 'asc' }),
        total: ctx.stores.consoleAudit.count(org.id),
      }),
      // The page reads as sentences; the CSV keeps the raw fields a script parses.
      columns: [
        { key: 'at', label: 'When', value: (e) => e.at, cell: (e) => timeCell(e.at, now) },
        { key: 'what', label: 'What happened', value: (e) => auditSentence(e), sortable: false, csv: false },
        { key: 'actor', label: 'Who', value: (e) => e.actor, sortable: false, html: false },
        { key: 'action', label: 'What', value: (e) => e.action, sortable: false, html: false },
        { key: 'target', label: 'On', value: (e) => e.target, sortable: false, html: false },
        { key: 'detail', label: 'Detail', value: (e) => (e.detail ? JSON.stringify(e.detail) : null), sortable: false, html: false },
      ],
    };
    if (req.query.csv === spec.id) return sendCsv(res, `${org.id}-audit.csv`, tableCsv(spec, req.query));
    renderPage(res, 'audit', { title: `${org.name} — audit log`, section: 'audit', table: buildTable(spec, req.query, base) });
  });
  return router;
}
