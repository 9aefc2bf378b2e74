import { Router, type NextFunction, type Request, type Response } from 'express';
import type { Config } from '../../config/schema.js';
import type { Stores } from '../../data/stores/index.js';
import type { Project } from '../../data/stores/projects.js';
import { createClientLimiter } from '../analytics/client-limiter.js';
import { ApiError, errors } from '../errors.js';
import { jsonBody } from '../http/json-body.js';
import type { Logger } from '../logger.js';
import type { Assistant, SiteSource } from './answer.js';
import { callerMessages } from './caller-messages.js';
import { rankPassages } from './rank.js';
import type { AssistantKeyStore } from './keys-store.js';
import { dataStreamSink, uiMessageStreamSink } from './ui-stream.js';

type Handler = (req: Request, res: Response, project: Project) => void | Promise<void>;

const notServed = () => new ApiError(404, 'NOT_SERVED', "No search index available: this appliance does not serve this project's documentation");
const str = (v: unknown, name: string, max = 10_000): string | undefined => {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw errors.badRequest(`"${name}" must be a string`);
  if (v.length > max) throw errors.badRequest(`"${name}" is longer than ${max} characters`);
  return v;
};

/**
 * The hosted platform's discovery API (its document's server is `…/discovery`): search, page
 * content and assistant messages v1 (AI SDK v4 data stream) and v2 (AI SDK v5 UI message stream),
 * with assistant keys. `{domain}` is the key's project's domain or its first label; any other gets
 * 404 (a key cannot probe other projects).
 */
export function createDiscoveryRouter(deps: { config: () => Readonly<Config>; stores: Stores; keys: AssistantKeyStore; assistant: Assistant; site: (host?: string) => SiteSource | undefined; now: () => number; log: Logger }): Router {
  const router = Router();
  const limiter = createClientLimiter(() => deps.config().assistant.perKeyPerMinute, deps.now);

  const route = (path: string, handler: Handler) =>
    router.post(path, (req: Request, res: Response, next: NextFunction) => {
      const m = /^Bearer[ ]+(\S+)\s*$/i.exec(req.get('authorization') ?? '');
      const check = m ? deps.keys.check(m[1]!) : undefined;
      if (!check?.ok) return next(errors.invalidAssistantKey());
      const project = deps.stores.projects.get(check.key.projectId);
      const domain = String(req.params.domain ?? '').toLowerCase();
      if (!project || (domain !== project.domain.toLowerCase() && domain !== project.domain.toLowerCase().split('.')[0])) return next(errors.domainNotFound());
      const r = limiter.hit(check.key.id);
      res.setHeader('RateLimit-Limit', String(r.limit));
      res.setHeader('RateLimit-Remaining', String(r.remaining));
      res.setHeader('RateLimit-Reset', String(r.resetSeconds));
      if (!r.allowed) return next(errors.rateLimited(r.resetSeconds));
      jsonBody(deps.config().admin.maxBodyBytes)(req, res, (err?: unknown) => {
        if (err) return next(err);
        // Called back by the body parser, outside the router: a throw must still reach next().
        Promise.resolve()
          .then(() => handler(req, res, project))
          .catch(next);
      });
    });

  /** The served site, when it is this project's. */
  const siteFor = (project: Project) => {
    const s = deps.site(project.domain);
    if (!s || (s.projectId !== null && s.projectId !== project.id)) throw notServed();
    return s;
  };

  route('/discovery/v1/search/:domain', async (req, res, project) => {
    const body = (req.body ?? {}) as { query?: unknown; pageSize?: unknown; scoreThreshold?: unknown; filter?: unknown };
    const query = str(body.query, 'query', 1000);
    if (!query?.trim()) throw errors.badRequest('"query" is required');
    const pageSize = body.pageSize ?? 10;
    if (typeof pageSize !== 'number' || !Number.isInteger(pageSize) || pageSize < 1 || pageSize > 50) throw errors.badRequest('"pageSize" must be an integer from 1 to 50');
    const threshold = body.scoreThreshold ?? 0;
    if (typeof threshold !== 'number' || threshold < 0 || threshold > 1) throw errors.badRequest('"scoreThreshold" must be a number from 0 to 1');
    const filter = (body.filter ?? {}) as { language?: unknown; version?: unknown };
    if (typeof filter !== 'object' || Array.isArray(filter)) throw errors.badRequest('"filter" must be an object');
    const site = siteFor(project);
    const scope = await site.retrieval.scopeOf(undefined);
    const hits = await rankPassages(site.retrieval, await site.vectors(), query, { limit: pageSize, language: str(filter.language, 'filter.language', 50) ?? scope.language, version: str(filter.version, 'filter.version', 100) ?? scope.version });
    res.json(
      hits
        .filter((h) => h.score >= threshold)
        .map((h) => ({
          content: h.text,
          path: h.path,
          metadata: { title: h.title, heading: h.heading, url: `https://${project.domain}${h.url}`, score: h.score, ...(h.language ? { language: h.language } : {}), ...(h.version ? { version: h.version } : {}) },
        })),
    );
  });

  route('/discovery/v1/page/:domain', (req, res, project) => {
    const path = str((req.body as { path?: unknown } | undefined)?.path, 'path', 500);
    if (!path?.trim()) throw errors.badRequest('"path" is required');
    const page = siteFor(project).retrieval.page(path);
    if (!page) throw new ApiError(404, 'PAGE_NOT_FOUND', `No page at "${path}"`);
    res.json({ path, content: page.content });
  });

  const message = (protocol: 'v1' | 'v2'): Handler => async (req, res, project) => {
    const body = (req.body ?? {}) as { fp?: unknown; messages?: unknown; threadId?: unknown; retrievalPageSize?: unknown; filter?: unknown; currentPath?: unknown };
    if (typeof body.fp !== 'string') throw errors.badRequest('"fp" is required (use "anonymous" for anonymous users)');
    const size = body.retrievalPageSize;
    if (size !== undefined && (typeof size !== 'number' || !Number.isFinite(size) || size < 1)) throw errors.badRequest('"retrievalPageSize" must be a positive number');
    const filter = (body.filter ?? {}) as { language?: unknown; version?: unknown };
    if (typeof filter !== 'object' || Array.isArray(filter)) throw errors.badRequest('"filter" must be an object');
    siteFor(project);
    // `fp` identifies the caller's user: checked, never stored (docs/assistant.md, "What is stored").
    const prepared = await deps.assistant.prepare({
      projectId: project.id,
      caller: 'api',
      host: project.domain,
      messages: callerMessages(body.messages),
      threadId: str(body.threadId, 'threadId', 100) ?? null,
      currentPath: str(body.currentPath, 'currentPath', 200),
      filter: { language: str(filter.language, 'filter.language', 50), version: str(filter.version, 'filter.version', 100) },
      retrievalPageSize: size as number | undefined,
      urlBase: `https://${project.domain}`,
    });
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const sink = protocol === 'v2' ? uiMessageStreamSink(res, prepared.threadId) : dataStreamSink(res, prepared.threadId);
    return prepared.run(sink, abort.signal);
  };
  route('/discovery/v1/assistant/:domain/message', message('v1'));
  route('/discovery/v2/assistant/:domain/message', message('v2'));
  return router;
}
