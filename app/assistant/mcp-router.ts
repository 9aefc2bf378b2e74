import type { IncomingMessage } from 'node:http';
import express, { Router, type Response } from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import type { Config } from '../../config/schema.js';
import { createClientLimiter } from '../analytics/client-limiter.js';
import type { Logger } from '../logger.js';
import type { SectionVectors } from './embeddings.js';
import { rankPassages } from './rank.js';
import type { SiteRetrieval } from './retrieval.js';

export const MCP_PATH = '/mcp';
const MAX_MCP_BODY = 64 * 1024;

function limited(res: Response, r: { limit: number; remaining: number; resetSeconds: number; allowed: boolean }): boolean {
  res.setHeader('RateLimit-Limit', String(r.limit));
  res.setHeader('RateLimit-Remaining', String(r.remaining));
  res.setHeader('RateLimit-Reset', String(r.resetSeconds));
  if (r.allowed) return false;
  res.setHeader('Retry-After', String(r.resetSeconds));
  res.status(429).json({ jsonrpc: '2.0', error: { code: -32000, message: `Too many requests from this address; retry in ${r.resetSeconds} s` }, id: null });
  return true;
}

/** The MCP server's tools over one served site: read-only search and page reads, nothing else. */
export function buildMcpServer(retrieval: SiteRetrieval, siteName: string, vectors?: SectionVectors): McpServer {
  const server = new McpServer({ name: `${siteName} docs`, version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool(
    'search',
    {
      title: 'Search the documentation',
      description: `Search ${siteName}'s documentation. Returns the best-matching sections with their page path and URL; read a whole page with get_page.`,
      inputSchema: {
        query: z.string().min(1).max(1000).describe('What to look for'),
        pageSize: z.number().int().min(1).max(50).optional().describe('Results to return (default 10)'),
        language: z.string().max(20).optional().describe('Language code, e.g. "en" (default: the site default)'),
        version: z.string().max(100).optional().describe('Documentation version (default: the site default)'),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
    async ({ query, pageSize, language, version }) => {
      const scope = retrieval.scopeOf(undefined);
      const hits = await rankPassages(retrieval, vectors, query, { limit: pageSize ?? 10, language: language ?? scope.language, version: version ?? scope.version });
      const text = hits.length
        ? hits.map((h) => `## ${h.title} — ${h.heading}\nPath: ${h.path}\nURL: ${h.url}\n\n${h.text}`).join('\n\n---\n\n')
        : 'No documentation matched the query.';
      return { content: [{ type: 'text', text }] };
    },
  );
  server.registerTool(
    'get_page',
    {
      title: 'Read a documentation page',
      description: 'The full Markdown of one documentation page, by the path search returned (e.g. "guides/intro").',
      inputSchema: { path: z.string().min(1).max(500).describe('Page path, as returned by search') },
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
    ({ path }) => {
      const page = retrieval.page(path);
      if (!page) return { isError: true, content: [{ type: 'text', text: `No page at "${path}".` }] };
      return { content: [{ type: 'text', text: page.content }] };
    },
  );
  return server;
}

/**
 * POST /mcp on the site listener: the Streamable HTTP transport of the official SDK, stateless (a
 * server per request; no sessions to keep or expire), answering with JSON. GET and DELETE are for
 * sessions and server-initiated streams, which a stateless read-only server does not have: 405.
 */
export function createMcpRouter(deps: { config: () => Readonly<Config>; now: () => number; retrieval: (host: string | undefined) => { retrieval: SiteRetrieval; name: string; vectors?: SectionVectors | undefined } | undefined; log: Logger }): Router {
  const router = Router();
  const limiter = createClientLimiter(() => deps.config().assistant.searchPerClientPerMinute, deps.now);
  router.post(MCP_PATH, (req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    if (limited(res, limiter.hit(req.ip ?? 'unknown'))) return;
    const site = deps.retrieval(req.get('host'));
    if (!site) return void res.status(503).json({ jsonrpc: '2.0', error: { code: -32000, message: 'No documentation site is being served yet' }, id: null });
    express.json({ limit: MAX_MCP_BODY })(req, res, (err?: unknown) => {
      if (err) return void res.status((err as { status?: number }).status === 413 ? 413 : 400).json({ jsonrpc: '2.0', error: { code: -32700, message: 'Request body is not JSON or too large' }, id: null });
      const server = buildMcpServer(site.retrieval, site.name, site.vectors);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      server
        .connect(transport)
        .then(() => transport.handleRequest(req as unknown as IncomingMessage, res, req.body))
        .catch((e: unknown) => {
          deps.log.error({ err: (e as Error).message }, 'mcp request failed');
          if (!res.headersSent) next(e);
        });
    });
  });
  const notAllowed = (res: Response) =>
    void res.status(405).setHeader('Allow', 'POST').json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this server is stateless; POST JSON-RPC messages' }, id: null });
  // A browser asking for /mcp gets the docs site (a page may live there); an MCP client's stream request gets 405.
  router.get(MCP_PATH, (req, res, next) => ((req.get('accept') ?? '').includes('text/event-stream') ? notAllowed(res) : next()));
  router.delete(MCP_PATH, (_req, res) => notAllowed(res));
  return router;
}
