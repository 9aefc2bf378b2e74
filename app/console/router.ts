import fs from 'node:fs';
import path from 'node:path';
import express, { Router, type ErrorRequestHandler, type Request } from 'express';
import { scopeAllows } from '../http/auth.js';
import type { AppContext } from '../context.js';
import { ApiError, errors, storageError } from '../errors.js';
import { audit } from './audit.js';
import { noticeText, withNotice } from './notices.js';
import { clearSessionCookie, loadSession, startSession } from './session.js';
import { orgAccess, preSessionToken, projectAccess, requireCsrf, requireSignIn } from './guards.js';
import { renderPage, staticDir } from './render.js';
import { consoleHeaders } from './security-headers.js';
import { createSsoRouter } from './sso.js';
import { createKeysRouter } from './pages/keys.js';
import { createOverviewRouter } from './pages/overview.js';
import { createProjectRouter, type ConsoleExports } from './pages/project.js';
import { createAnalyticsRouter } from './pages/analytics.js';
import { createAuditRouter } from './pages/audit.js';
import type { ConsoleServices } from './services.js';
import type { SiteFeature } from '../site/feature.js';
import { createEditorRouter, createPreviewAssetsRouter, editorApiError, PREVIEW_ASSETS_PATH, sendEditorApiError, type EditorDeps } from '../editor/router.js';
import { createPreviewTokens } from '../editor/preview-token.js';
import { roleIn } from './session.js';

export interface ConsoleDeps extends ConsoleServices {
  exports?: ConsoleExports | undefined;
  site?: Pick<SiteFeature, 'loader'> | undefined;
  /** The web editor's services (issue 41, docs/editor.md). */
  editor?: EditorDeps | undefined;
}

/** The editor's JSON API (app/editor/router.ts): its errors are JSON, never pages or redirects. */
const isEditorApi = (req: Request) => /^\/console\/orgs\/[^/]+\/projects\/[^/]+\/editor\/api(\/|$)/.test(req.originalUrl);

const STATIC: Record<string, string> = { 'console.css': 'text/css; charset=utf-8', 'console.js': 'text/javascript; charset=utf-8', 'favicon.svg': 'image/svg+xml' };
const SIGN_IN_WINDOW_MS = 15 * 60_000;

/** The admin console at /console (docs/console.md): pages, sign-in, SSO. */
export function createConsoleRouter(ctx: AppContext, deps: ConsoleDeps): Router {
  const router = Router();
  const settings = () => ctx.config.console;
  const assets = new Map(Object.keys(STATIC).map((name) => [name, fs.readFileSync(path.join(staticDir(), name))]));

  router.use('/console', consoleHeaders());
  router.get('/console/static/:file', (req, res, next) => {
    const file = String(req.params.file);
    const body = assets.get(file);
    if (!body) return next(new ApiError(404, 'NOT_FOUND', 'No such file'));
    res.setHeader('Cache-Control', 'no-cache');
    res.type(STATIC[file]!).send(body);
  });
  router.use('/console', express.urlencoded({ extended: false, limit: '32kb', parameterLimit: 50 }));
  router.use('/console', loadSession(ctx.stores, settings, () => ctx.clock.now()));
  router.use('/console', requireCsrf(ctx.config.admin.publicUrl));
  router.use('/console', (req, res, next) => {
    const user = req.consoleUser;
    res.locals.page = {
      user: user ? { name: user.session.displayName, kind: user.session.kind, csrf: user.session.csrfToken } : null,
      orgs: user ? user.session.memberships.map((m) => ({ id: m.orgId, name: ctx.stores.organizations.get(m.orgId)?.name ?? m.orgId, role: m.role })) : [],
      org: null,
      role: null,
      project: null,
      section: '',
      notice: noticeText(req.query.notice),
    };
    next();
  });

  /** Sign-in attempts (key and SSO) per client address; over the limit, 429 before any check. */
  const rateLimited = (req: Request): void => {
    const r = ctx.stores.rateLimits.hit(`console-sign-in:${req.ip ?? 'unknown'}`, settings().signInAttemptsPer15Minutes, SIGN_IN_WINDOW_MS);
    if (!r.allowed) throw errors.rateLimited(r.resetSeconds);
  };

  router.get('/console', (req, res) => {
    const first = req.consoleUser?.session.memberships[0];
    res.redirect(303, first ? `/console/orgs/${encodeURIComponent(first.orgId)}` : '/console/sign-in');
  });

  router.get('/console/sign-in', (req, res) => {
    if (req.consoleUser) return res.redirect(303, '/console');
    renderPage(res, 'sign-in', { title: 'Sign in', csrf: preSessionToken(req, res), sso: settings().oidc !== undefined, error: null });
  });

  router.post('/console/sign-in', (req, res) => {
    rateLimited(req);
    const key = typeof req.body?.key === 'string' ? req.body.key.trim() : '';
    const check = ctx.stores.adminKeys.check(key);
    const org = check.ok ? ctx.stores.organizations.get(check.key.orgId) : undefined;
    if (!check.ok || !org) {
      ctx.log.warn({ reqId: req.id, reason: check.ok ? 'no organization' : check.reason }, 'console: key sign-in refused');
      const why = !check.ok && (check.reason === 'revoked' || check.reason === 'expired') ? `This admin key is ${check.reason}.` : 'That is not a valid admin key.';
      return renderPage(res, 'sign-in', { title: 'Sign in', csrf: preSessionToken(req, res), sso: settings().oidc !== undefined, error: why }, 401);
    }
    const role = scopeAllows(check.key.scopes, 'write') ? 'write' : 'read';
    const displayName = `key ${check.key.id} (${check.key.prefix}…)`;
    startSession(req, res, ctx.stores, settings(), { kind: 'key', subject: check.key.id, displayName, keyId: check.key.id, memberships: [{ orgId: org.id, role }] });
    ctx.stores.consoleAudit.record({ orgId: org.id, actor: displayName, action: 'session.sign-in', target: check.key.id, detail: { method: 'key', role } });
    res.redirect(303, `/console/orgs/${encodeURIComponent(org.id)}`);
  });

  router.post('/console/sign-out', (req, res) => {
    const user = req.consoleUser;
    if (user) {
      ctx.stores.consoleSessions.end(user.sessionId);
      for (const m of user.session.memberships) audit(ctx.stores, ctx.log, req, m.orgId, 'session.sign-out', user.session.subject);
    }
    clearSessionCookie(req, res);
    res.redirect(303, withNotice('/console/sign-in', 'signed-out'));
  });

  const oidc = settings().oidc;
  if (oidc) router.use(createSsoRouter(ctx, oidc, { rateLimited }));

  const org = Router({ mergeParams: true });
  org.use(requireSignIn(), orgAccess(ctx.stores), (_req, res, next) => {
    res.locals.page.org = res.locals.org;
    res.locals.page.role = res.locals.role;
    next();
  });
  org.use(createOverviewRouter(ctx, deps));
  org.use(createKeysRouter(ctx));
  org.use(createAuditRouter(ctx));
  const project = Router({ mergeParams: true });
  project.use(projectAccess(ctx.stores), (_req, res, next) => {
    res.locals.page.project = res.locals.project;
    next();
  });
  project.use(createProjectRouter(ctx, deps));
  project.use(createAnalyticsRouter(ctx, deps));
  const previewTokens = createPreviewTokens();
  if (ctx.config.editor.enabled) project.use('/editor', createEditorRouter(ctx, deps.editor, previewTokens));
  // A preview's assets authenticate by the token in their path, not the session (app/editor/preview-token.ts).
  if (ctx.config.editor.enabled) router.use(PREVIEW_ASSETS_PATH, createPreviewAssetsRouter(ctx, deps.editor ?? {}, previewTokens));
  org.use('/projects/:projectId', project);

  // The editor's short address: the org path of the project, for a member of its organization.
  router.get('/console/projects/:projectId/editor', requireSignIn(), (req, res) => {
    const p = ctx.stores.projects.get(String(req.params.projectId));
    if (!p || !roleIn(req.consoleUser, p.orgId) || !ctx.config.editor.enabled) throw errors.projectNotFound();
    const q = req.originalUrl.indexOf('?');
    res.redirect(303, `/console/orgs/${encodeURIComponent(p.orgId)}/projects/${encodeURIComponent(p.id)}/editor${q >= 0 ? req.originalUrl.slice(q) : ''}`);
  });
  router.use('/console/orgs/:orgId', org);

  router.use('/console', (req, _res, next) => next(errors.routeNotFound(req.method, req.path)));
  router.use('/console', consoleErrors(ctx));
  return router;
}

/** Console errors are pages with the catalogue's status and message; a missing session goes to sign-in. */
function consoleErrors(ctx: AppContext): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (isEditorApi(req)) {
      const known = editorApiError(err);
      if (!known) ctx.log.error({ reqId: req.id, err }, 'editor request failed');
      return sendEditorApiError(res, known ?? errors.internal());
    }
    const apiError = err instanceof ApiError ? err : storageError(err);
    if (apiError?.code === 'SIGN_IN_REQUIRED' && req.method === 'GET' && !req.path.endsWith('.json')) {
      return res.redirect(303, '/console/sign-in');
    }
    // The form parser's own refusals: a body or field count past the limits, or an unreadable body.
    const parserStatus = (err as { status?: unknown; expose?: unknown }).expose === true ? (err as { status?: unknown }).status : undefined;
    const parserError = parserStatus === 413 ? errors.payloadTooLarge(32 * 1024) : typeof parserStatus === 'number' && parserStatus >= 400 && parserStatus < 500 ? errors.badRequest('Malformed form') : undefined;
    const shown = apiError ?? parserError ?? errors.internal();
    if (!apiError && !parserError) ctx.log.error({ reqId: req.id, err }, 'console request failed');
    for (const [k, v] of Object.entries(shown.headers)) res.setHeader(k, v);
    if (req.path.endsWith('.json')) return res.status(shown.status).json({ error: shown.message });
    renderPage(res, 'error', { title: 'Error', status: shown.status, code: shown.code, message: shown.message }, shown.status);
  };
}
