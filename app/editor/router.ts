import crypto from 'node:crypto';
import express, { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import type { Project } from '../../data/stores/projects.js';
import type { GitHostClient } from '../agent/git-host.js';
import { GitHostError } from '../agent/git-host.js';
import type { GitHostType } from '../agent/run-protocol.js';
import { audit } from '../console/audit.js';
import type { AppContext } from '../context.js';
import { ApiError, errors, storageError } from '../errors.js';
import { PublishRequestError, type PublishService } from '../publish/index.js';
import { CONFIG_FILES, checkSiteConfig } from './config-check.js';
import { createDirWorkspace } from './dir-workspace.js';
import { createGitWorkspace, type GitWorkspace } from './git-workspace.js';
import { renderEditorPage } from './page.js';
import { createEditorStaticRouter } from './static.js';
import { createPreviewTokens, type PreviewTokens } from './preview-token.js';
import { checkRelPath } from './paths.js';
import { sniffImage } from './upload.js';
import { DIRECTORY_BRANCH, type EditorAuthor, type EditorWorkspace } from './workspace.js';

/** The live preview (app/editor/preview.ts, the contract's EditorPreview), as the router uses it. */
export interface EditorPreviewPort {
  render(input: { projectId: string; docsRoot: string; relPath: string; content: string; dark?: boolean; assetBase?: string }): Promise<{ html: string; errors: { file: string; line: number; column?: number; message: string }[]; ms: number }>;
  asset(projectId: string, docsRoot: string, assetPath: string): Promise<{ body: Buffer; type: string } | undefined>;
  close(): Promise<void>;
}

export interface EditorDeps {
  /** Publishing and preview deployments (app/publish/service.ts); absent: those routes answer 503. */
  publish?: Pick<PublishService, 'publish' | 'preview' | 'previews' | 'history' | 'previewUrl'> | undefined;
  /** The live preview; absent: api/preview answers 503 EDITOR_PREVIEW_UNAVAILABLE. */
  preview?: EditorPreviewPort | undefined;
  /** The agent's Git-host clients (app/agent/git-host.ts), for pull requests. */
  gitHostClient?: ((host: { type: GitHostType; apiUrl: string; token?: string | undefined }) => GitHostClient) | undefined;
}

const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

/** The commit author for the signed-in console user (docs/editor.md "Saving and conflicts"). */
export function authorOf(req: Request): EditorAuthor {
  const s = req.consoleUser!.session;
  if (s.kind === 'key') return { name: s.displayName, email: `key-${s.keyId ?? s.subject}@docs-appliance.invalid` };
  const email = EMAIL.test(s.displayName) ? s.displayName : `sso-${crypto.createHash('sha256').update(s.subject).digest('hex').slice(0, 16)}@docs-appliance.invalid`;
  return { name: s.displayName, email };
}

const str = (v: unknown, field: string, max = 10_000): string => {
  if (typeof v !== 'string') throw errors.badRequest(`Invalid body: ${field} must be a string`);
  if (v.length > max) throw errors.badRequest(`Invalid body: ${field} is longer than ${max} characters`);
  return v;
};
const optStr = (v: unknown, field: string, max?: number): string | undefined => (v === undefined || v === null || v === '' ? undefined : str(v, field, max));
const query = (req: Request, name: string): string => {
  const v = req.query[name];
  if (typeof v !== 'string' || !v) throw errors.badRequest(`Missing query parameter ${name}`);
  return v;
};
const bodyOf = (req: Request): Record<string, unknown> => {
  const b = req.body as unknown;
  if (!b || typeof b !== 'object' || Array.isArray(b)) throw errors.badRequest('Invalid body: a JSON object is expected');
  return b as Record<string, unknown>;
};
const shaField = (v: unknown, field: string): string | null => {
  if (v === null) return null;
  if (typeof v !== 'string' || !/^[0-9a-f]{40,64}$/.test(v)) throw errors.badRequest(`Invalid body: ${field} must be the file's sha (hex) or null for a new file`);
  return v;
};

/** The async handler's rejection goes to the error handler (Express 4 does not await). */
const handle =
  (fn: (req: Request, res: Response) => Promise<unknown>): RequestHandler =>
  (req, res, next) => {
    fn(req, res).catch(next);
  };

/**
 * The web editor (issue 41, docs/editor.md) under `/console/orgs/:orgId/projects/:projectId/editor`:
 * the page, and its JSON API under `api/`. The console's guards have run: a signed-in member of
 * the organization (res.locals.org/project/role), CSRF and Origin checked on every change.
 */
export function createEditorRouter(ctx: AppContext, deps: EditorDeps = {}, tokens: PreviewTokens = createPreviewTokens()): Router {
  const router = Router({ mergeParams: true });
  // The page's own script and style (dist/editor, built by scripts/build-editor.mjs).
  router.use('/static', createEditorStaticRouter());
  const settings = () => ctx.config.editor;
  const projectOf = (res: Response) => res.locals.project as Project;

  function workspaceFor(req: Request, res: Response): EditorWorkspace {
    const project = projectOf(res);
    return workspaceOf(ctx, project, (action, target, detail) => audit(ctx.stores, ctx.log, req, project.orgId, action, target, { projectId: project.id, ...detail }));
  }
  const gitWorkspace = (req: Request, res: Response): GitWorkspace => {
    const ws = workspaceFor(req, res);
    if (ws.source !== 'git') throw errors.notAGitSource();
    return ws as GitWorkspace;
  };
  const publishService = () => {
    if (!deps.publish) throw new ApiError(503, 'PUBLISH_UNAVAILABLE', 'Publishing is not available on this appliance');
    return deps.publish;
  };
  const refused = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (err) {
      if (err instanceof PublishRequestError) throw errors.publishRefused(err.message);
      throw err;
    }
  };

  router.get('/', (req, res) => {
    const project = projectOf(res);
    const user = req.consoleUser!.session;
    const base = `/console/orgs/${encodeURIComponent(project.orgId)}/projects/${encodeURIComponent(project.id)}/editor`;
    renderEditorPage(req, res, {
      org: { id: res.locals.org.id, name: res.locals.org.name },
      project: { id: project.id, name: project.name },
      role: res.locals.role,
      user: { name: user.displayName, csrf: user.csrfToken },
      ...(typeof req.query.branch === 'string' ? { branch: req.query.branch } : {}),
      ...(typeof req.query.path === 'string' ? { path: req.query.path } : {}),
      editorBase: base,
    });
  });

  const api = Router({ mergeParams: true });
  api.use((req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    // Writes need the write role; a preview render changes nothing, so a reader may ask for one.
    const safe = req.method === 'GET' || req.method === 'HEAD' || req.path === '/preview';
    next(safe || res.locals.role === 'write' ? undefined : errors.writeRoleRequired());
  });
  api.use((req, res, next) => (req.path === '/upload' ? next() : express.json({ limit: settings().maxBodyBytes, strict: true, type: () => true })(req, res, next)));

  api.get(
    '/state',
    handle(async (req, res) => {
      const ws = workspaceFor(req, res);
      const project = projectOf(res);
      const list = await ws.branches();
      const pub = ws.source === 'git' ? deps.publish : undefined;
      const records = pub ? pub.history(project.id, 200).filter((r) => r.kind === 'preview') : [];
      const branches = list.map((b) => {
        const rec = records.find((r) => r.branch === b.name);
        const host = rec?.previewHost ?? pub?.previews(project.id).find((p) => p.branch === b.name)?.host;
        return { ...b, ...(rec && host && pub ? { preview: { url: pub.previewUrl(host), status: rec.status } } : {}) };
      });
      res.json({ source: ws.source, defaultBranch: ws.defaultBranch, branches, canWrite: res.locals.role === 'write', user: { name: req.consoleUser!.session.displayName } });
    }),
  );

  api.post(
    '/branches',
    handle(async (req, res) => {
      const body = bodyOf(req);
      const ws = gitWorkspace(req, res);
      const name = str(body.name, 'name', 200);
      const created = await ws.createBranch(name, optStr(body.from, 'from', 200) ?? ws.defaultBranch);
      audit(ctx.stores, ctx.log, req, projectOf(res).orgId, 'editor.branch-create', name, { projectId: projectOf(res).id, head: created.head });
      res.status(201).json(created);
    }),
  );

  api.get(
    '/tree',
    handle(async (req, res) => {
      const ws = workspaceFor(req, res);
      const branch = typeof req.query.branch === 'string' && req.query.branch ? req.query.branch : ws.defaultBranch;
      const tree = await ws.tree(branch);
      res.json({ branch, head: tree.head, entries: tree.entries });
    }),
  );

  api.get(
    '/file',
    handle(async (req, res) => {
      const ws = workspaceFor(req, res);
      const rel = checkRelPath(req.query.path);
      const file = await ws.read(query(req, 'branch'), rel);
      res.json({ path: file.path, content: file.content.toString('utf8'), sha: file.sha, head: file.head });
    }),
  );

  api.put(
    '/file',
    handle(async (req, res) => {
      const body = bodyOf(req);
      const ws = workspaceFor(req, res);
      const rel = checkRelPath(body.path);
      const content = str(body.content, 'content', settings().maxBodyBytes);
      if (!('baseSha' in body)) throw errors.badRequest('Invalid body: baseSha is required (null for a new file)');
      const baseSha = shaField(body.baseSha, 'baseSha');
      const branch = str(body.branch, 'branch', 200);
      // The site's config is checked as the export would load it: a broken one is never committed.
      if (CONFIG_FILES.has(rel)) checkSiteConfig(rel, content, await ws.docsRoot(branch));
      const message = optStr(body.message, 'message', 2000) ?? `${baseSha === null ? 'Create' : 'Update'} ${rel}`;
      const saved = await ws.write(branch, rel, Buffer.from(content, 'utf8'), baseSha, authorOf(req), message);
      res.json(saved);
    }),
  );

  api.delete(
    '/file',
    handle(async (req, res) => {
      const ws = workspaceFor(req, res);
      const rel = checkRelPath(req.query.path);
      const baseSha = shaField(query(req, 'baseSha'), 'baseSha');
      if (baseSha === null) throw errors.badRequest('baseSha is required');
      const done = await ws.remove(query(req, 'branch'), rel, baseSha, authorOf(req), `Delete ${rel}`);
      res.json({ commit: done.commit, head: done.head });
    }),
  );

  api.post(
    '/rename',
    handle(async (req, res) => {
      const body = bodyOf(req);
      const ws = workspaceFor(req, res);
      const from = checkRelPath(body.from);
      const to = checkRelPath(body.to);
      if (from === to) throw errors.badRequest('Invalid body: from and to are the same path');
      const done = await ws.rename(str(body.branch, 'branch', 200), from, to, body.redirect === true, authorOf(req));
      res.json({ commit: done.commit, head: done.head });
    }),
  );

  api.post(
    '/upload',
    (req, res, next) => express.raw({ type: () => true, limit: settings().maxUploadBytes })(req, res, next),
    handle(async (req, res) => {
      const ws = workspaceFor(req, res);
      const rel = checkRelPath(req.query.path);
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      sniffImage(body, rel, req.get('content-type'));
      const baseSha = typeof req.query.baseSha === 'string' && req.query.baseSha ? shaField(req.query.baseSha, 'baseSha') : null;
      const saved = await ws.write(query(req, 'branch'), rel, body, baseSha, authorOf(req), `Upload ${rel}`);
      res.status(201).json({ path: saved.path, sha: saved.sha, commit: saved.commit });
    }),
  );

  api.post(
    '/preview',
    handle(async (req, res) => {
      const body = bodyOf(req);
      if (!deps.preview) throw errors.editorPreviewUnavailable();
      const ws = workspaceFor(req, res);
      const rel = checkRelPath(body.path);
      const content = str(body.content, 'content', settings().maxBodyBytes);
      const branch = str(body.branch, 'branch', 200);
      // The clone as the last open or save left it: a keystroke's preview must not fetch the branch.
      const docsRoot = ws.syncedDocsRoot(branch) ?? (await ws.docsRoot(branch));
      const project = projectOf(res);
      const assetBase = `${PREVIEW_ASSETS_PATH}/${tokens.issue(project.id, branch)}/`;
      const out = await deps.preview.render({ projectId: project.id, docsRoot, relPath: rel, content, assetBase, ...(body.dark === true ? { dark: true } : {}) });
      res.json({ html: out.html, errors: out.errors });
    }),
  );

  api.post(
    '/deploy-preview',
    handle(async (req, res) => {
      const body = bodyOf(req);
      const ws = gitWorkspace(req, res);
      const branch = str(body.branch, 'branch', 200);
      if (!(await ws.branches()).some((b) => b.name === branch)) throw errors.branchNotFound(branch);
      const project = projectOf(res);
      const { record, previewUrl } = refused(() => publishService().preview(project.id, branch, 'console'));
      audit(ctx.stores, ctx.log, req, project.orgId, 'editor.deploy-preview', branch, { projectId: project.id, publishId: record.id });
      res.status(202).json({ previewUrl, publishId: record.id });
    }),
  );

  api.post(
    '/publish',
    handle(async (req, res) => {
      const body = bodyOf(req);
      const ws = workspaceFor(req, res);
      const project = projectOf(res);
      const branch = str(body.branch, 'branch', 200);
      const pub = publishService();
      let merged: string | null = null;
      if (ws.source === 'git') merged = (await (ws as GitWorkspace).mergeIntoDefault(branch, authorOf(req))).merged;
      else if (branch !== DIRECTORY_BRANCH) throw errors.notAGitSource();
      const record = refused(() => pub.publish(project.id, 'console'));
      audit(ctx.stores, ctx.log, req, project.orgId, 'publish.start', record.id, { projectId: project.id, branch, ...(merged ? { merged } : {}) });
      res.status(202).json({ publishId: record.id, merged });
    }),
  );

  api.post(
    '/pull-request',
    handle(async (req, res) => {
      const body = bodyOf(req);
      const ws = gitWorkspace(req, res);
      const project = projectOf(res);
      const branch = str(body.branch, 'branch', 200);
      const title = str(body.title, 'title', 300).trim();
      if (!title) throw errors.badRequest('Invalid body: title must not be empty');
      const description = optStr(body.description, 'description', 60_000) ?? '';
      if (branch === ws.defaultBranch) throw errors.badRequest('A pull request needs a branch other than the default branch');
      if (!project.gitHost || !deps.gitHostClient) throw errors.editorNoGitHost();
      if (!(await ws.branches()).some((b) => b.name === branch)) throw errors.branchNotFound(branch);
      const token = project.gitHost.tokenEnv ? process.env[project.gitHost.tokenEnv] : undefined;
      const client = deps.gitHostClient({ type: project.gitHost.type, apiUrl: project.gitHost.apiUrl, token });
      let url: string;
      try {
        url = await client.openPullRequest({ repository: project.repository!, head: branch, base: ws.defaultBranch, title, body: description });
      } catch (err) {
        if (err instanceof GitHostError) throw errors.editorGitHostFailed(err.message);
        throw err;
      }
      audit(ctx.stores, ctx.log, req, project.orgId, 'editor.pull-request', branch, { projectId: project.id, url });
      res.status(201).json({ url });
    }),
  );

  api.use((req, _res, next) => next(errors.routeNotFound(req.method, req.originalUrl.split('?')[0]!)));
  api.use(editorApiErrors(ctx));
  router.use('/api', api);
  return router;
}

/** The JSON error body of the editor's API: `{error, code, ...extra}` with the catalogue's status. */
export function editorApiError(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  const stored = storageError(err);
  if (stored) return stored;
  const e = err as { type?: unknown; status?: unknown; limit?: unknown; message?: unknown };
  if (e?.type === 'entity.too.large') return errors.payloadTooLarge(typeof e.limit === 'number' ? e.limit : 0);
  if (e?.type === 'entity.parse.failed') return errors.malformedJson(String(e.message ?? 'unreadable'));
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) return errors.badRequest(String(e.message ?? 'Bad request'));
  return undefined;
}

export function sendEditorApiError(res: Response, shown: ApiError): void {
  for (const [k, v] of Object.entries(shown.headers)) res.setHeader(k, v);
  res.setHeader('Cache-Control', 'no-store');
  res.status(shown.status).json({ error: shown.message, code: shown.code, ...shown.extra });
}

function editorApiErrors(ctx: AppContext): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const known = editorApiError(err);
    if (!known) ctx.log.error({ reqId: req.id, err }, 'editor request failed');
    else if (known.status >= 500) ctx.log.warn({ reqId: req.id, code: known.code, err: known.message.slice(0, 500) }, 'editor request failed');
    sendEditorApiError(res, known ?? errors.internal());
  };
}

/**
 * What the editor edits for a project: its Git branches with `publish.source: "git"` and a
 * repository, else its source directory (writes audited through `audit`), else nothing.
 */
function workspaceOf(ctx: AppContext, project: Project, audit: Parameters<typeof createDirWorkspace>[1]): EditorWorkspace {
  const pub = ctx.config.projects.find((p) => p.id === project.id)?.publish;
  if (pub?.source === 'git' && project.repository) return createGitWorkspace(ctx.config.stateDir, project, pub.docsPath);
  if (project.sourceDir !== null) return createDirWorkspace(project.sourceDir, audit);
  throw errors.noEditableSource();
}

/** Where a preview's assets are served (mounted by the console before its sign-in guards). */
export const PREVIEW_ASSETS_PATH = '/console/editor-preview';

/**
 * A preview's stylesheets, scripts, images and linked pages, for the project and branch its token
 * grants (preview-token.ts: the sandboxed preview frame sends no console cookie), read from the
 * branch's clone as the last open or save left it.
 */
export function createPreviewAssetsRouter(ctx: AppContext, deps: EditorDeps, tokens: PreviewTokens): Router {
  const router = Router();
  router.get('/:token/*asset', async (req, res, next) => {
    try {
      if (!deps.preview) throw errors.editorPreviewUnavailable();
      const grant = tokens.verify(String(req.params.token));
      const project = grant ? ctx.stores.projects.get(grant.projectId) : undefined;
      if (!grant || !project) throw new ApiError(404, 'NOT_FOUND', 'No such preview asset');
      // Reading only: nothing to audit.
      const ws = workspaceOf(ctx, project, () => undefined);
      const docsRoot = ws.syncedDocsRoot(grant.branch) ?? (await ws.docsRoot(grant.branch));
      const asset = await deps.preview.asset(project.id, docsRoot, ([] as string[]).concat((req.params as Record<string, string | string[]>).asset ?? []).join('/'));
      if (!asset) throw new ApiError(404, 'NOT_FOUND', 'No such preview asset');
      res.setHeader('Cache-Control', 'private, no-cache');
      // Loaded by the sandboxed (opaque-origin) preview frame: the console's same-origin CORP would block it.
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      res.type(asset.type).send(asset.body);
    } catch (err) {
      next(err);
    }
  });
  return router;
}
