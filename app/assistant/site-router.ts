import express, { Router, type NextFunction, type Request, type Response } from 'express';
import type { Config } from '../../config/schema.js';
import { createClientLimiter } from '../analytics/client-limiter.js';
import type { SiteProjectResolver } from '../analytics/project-resolver.js';
import { ApiError, errors } from '../errors.js';
import type { Logger } from '../logger.js';
import type { Assistant } from './answer.js';
import { callerMessages } from './caller-messages.js';
import { MCP_PATH } from './mcp-router.js';
import { uiMessageStreamSink } from './ui-stream.js';
import type { IncomingMessage } from 'node:http';
import type { ReaderView } from '../../renderer/access/contract.js';

/** The reader's panel talks to these, same-origin, with no key (a key must never sit in a page). */
export const ASSISTANT_STATUS_PATH = '/_/assistant';
export const ASSISTANT_MESSAGE_PATH = '/_/assistant/message';
const MAX_BODY = 256 * 1024;

function sendError(res: Response, err: ApiError) {
  for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
  res.status(err.status).json({ error: err.message });
}

/**
 * GET /_/assistant: `{enabled, mcp}` for the reader UI (shown only when `enabled`; on a static host
 * the request fails and the UI stays hidden) and the page menu's MCP options (`mcp`: the MCP
 * server's path on this host, null while no site is served here). POST /_/assistant/message: a
 * question, answered as an AI SDK v5 UI message stream, rate-limited per client address (the
 * address is only counted in memory, never stored).
 */
export function createAssistantSiteRouter(deps: { config: () => Readonly<Config>; now: () => number; assistant: Assistant; resolveProject: SiteProjectResolver; siteReady: (host: string | undefined) => boolean; readerView?: (req: IncomingMessage) => ReaderView; log: Logger }): Router {
  const router = Router();
  const limiter = createClientLimiter(() => deps.config().assistant.perClientPerMinute, deps.now);
  const json = express.json({ limit: MAX_BODY, type: () => true });
  const inFlight = new Map<string, number>();

  router.get(ASSISTANT_STATUS_PATH, (req, res) => {
    const a = deps.config().assistant;
    const served = deps.siteReady(req.get('host'));
    res.setHeader('Cache-Control', 'no-store');
    res.json({ enabled: !!(a.baseUrl && a.model) && served, mcp: served ? MCP_PATH : null });
  });

  router.post(ASSISTANT_MESSAGE_PATH, (req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Cache-Control', 'no-store');
    const r = limiter.hit(req.ip ?? 'unknown');
    res.setHeader('RateLimit-Limit', String(r.limit));
    res.setHeader('RateLimit-Remaining', String(r.remaining));
    res.setHeader('RateLimit-Reset', String(r.resetSeconds));
    if (!r.allowed) return sendError(res, new ApiError(429, 'RATE_LIMITED', `Too many questions from this address; retry in ${r.resetSeconds} s`, { headers: { 'Retry-After': String(r.resetSeconds) } }));
    // One address holds at most maxPerClient questions from its body's first byte to the end of
    // the answer (the response's close): it cannot take every maxConcurrent slot by itself.
    const client = req.ip ?? 'unknown';
    const limit = deps.config().assistant.maxPerClient;
    if ((inFlight.get(client) ?? 0) >= limit) return sendError(res, errors.assistantClientBusy(limit));
    inFlight.set(client, (inFlight.get(client) ?? 0) + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const n = (inFlight.get(client) ?? 1) - 1;
      if (n <= 0) inFlight.delete(client);
      else inFlight.set(client, n);
    };
    // 'finish': the last byte is handed over (the reader may ask again at once); 'close': it left.
    res.once('finish', release).once('close', release);
    json(req, res, (err?: unknown) => {
      if (err) return sendError(res, new ApiError((err as { status?: number }).status === 413 ? 413 : 400, 'BAD_REQUEST', (err as { status?: number }).status === 413 ? `Request body exceeds ${MAX_BODY} bytes` : 'Request body is not JSON'));
      const projectId = deps.resolveProject(req.get('host'));
      const body = (req.body ?? {}) as { messages?: unknown; threadId?: unknown; currentPath?: unknown };
      Promise.resolve()
        .then(() =>
          deps.assistant.prepare({
            projectId: projectId ?? 'local',
            caller: 'web',
            host: req.get('host'),
            messages: callerMessages(body.messages),
            threadId: typeof body.threadId === 'string' ? body.threadId : null,
            currentPath: typeof body.currentPath === 'string' ? body.currentPath.slice(0, 200) : undefined,
            urlBase: '',
            ...(deps.readerView ? { view: deps.readerView(req) } : {}),
          }),
        )
        .then((prepared) => {
          const abort = new AbortController();
          res.on('close', () => abort.abort());
          return prepared.run(uiMessageStreamSink(res, prepared.threadId), abort.signal).catch((e: unknown) => {
            deps.log.error({ err: (e as Error).message }, 'assistant stream failed');
            res.destroy();
          });
        })
        .catch((e: unknown) => {
          if (e instanceof ApiError) return sendError(res, e);
          next(e);
        });
    });
  });
  return router;
}
