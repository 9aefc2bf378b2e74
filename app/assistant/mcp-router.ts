import type { IncomingMessage } from 'node:http';
import express, { Router, type Response } from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import type { Config } from '../../config/schema.js';
import { createClientLimiter } from '../analytics/client-limiter.js';
import type { Logger } from '../logger.js';
import type { SiteSource } from './answer.js';
import { rankPassages } from './rank.js';

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

/** Tool calls one MCP request may carry (a JSON-RPC batch); each counts against the per-client limit. */
export const MCP_MAX_CALLS = 10;
/** Characters of tool output one MCP request may return, all its calls together. */
export const MCP_MAX_ANSWER_CHARS = 256 * 1024;

/** What one request's calls may still return: shared by its tool calls, spent as they answer. */
export interface AnswerBudget {
  left: number;
}

/** Text within the request's budget; what does not fit is cut, and the cut is said. */
function withinBudget(text: string, budget: AnswerBudget, more: string): string {
  if (text.length <= budget.left) {
    budget.left -= text.length;
    return text;
  }
  const note = `\n\n[Cut: this answer reached ${MCP_MAX_ANSWER_CHARS} characters, the most one request returns. ${more}]`;
  const keep = Math.max(0, budget.left - note.length);
  budget.left = 0;
  return text.slice(0, keep) + note;
}

/** The MCP server's tools over one served site: read-only search and page reads, nothing else. */
export function buildMcpServer(site: SiteSource, siteName: string, budget: AnswerBudget = { left: MCP_MAX_ANSWER_CHARS }): McpServer {
  const { retrieval } = site;
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
      if (budget.left <= 0) return { isError: true, content: [{ type: 'text', text: `This request's answer reached ${MCP_MAX_ANSWER_CHARS} characters; send the remaining calls in another request.` }] };
      const scope = await retrieval.scopeOf(undefined);
      const hits = await rankPassages(retrieval, await site.vectors(), query, { limit: pageSize ?? 10, language: language ?? scope.language, version: version ?? scope.version });
      const text = hits.length
        ? hits.map((h) => `## ${h.title} — ${h.heading}\nPath: ${h.path}\nURL: ${h.url}\n\n${h.text}`).join('\n\n---\n\n')
        : 'No documentation matched the query.';
      return { content: [{ type: 'text', text: withinBudget(text, budget, 'Ask for fewer results (pageSize).') }] };
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
      if (budget.left <= 0) return { isError: true, content: [{ type: 'text', text: `This request's answer reached ${MCP_MAX_ANSWER_CHARS} characters; send the remaining calls in another request.` }] };
      const page = retrieval.page(path);
      if (!page) return { isError: true, content: [{ type: 'text', text: `No page at "${path}".` }] };
      return { content: [{ type: 'text', text: withinBudget(page.content, budget, `The whole page is at /${page.path}.md.`) }] };
    },
  );
  return server;
}

/** Tool calls in a JSON-RPC message or batch (other methods are cheap: list, initialize, ping). */
function toolCalls(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body];
  return messages.filter((m) => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'tools/call').length;
}

/**
 * POST /mcp on the site listener: the Streamable HTTP transport of the official SDK, stateless (a
 * server per request; no sessions to keep or expire), answering with JSON. GET and DELETE are for
 * sessions and server-initiated streams, which a stateless read-only server does not have: 405.
 */
export function createMcpRouter(deps: { config: () => Readonly<Config>; now: () => number; site: (host: string | undefined) => SiteSource | undefined; log: Logger }): Router {
  const router = Router();
  const limiter = createClientLimiter(() => deps.config().assistant.searchPerClientPerMinute, deps.now);
  router.post(MCP_PATH, (req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    const site = deps.site(req.get('host'));
    if (!site) return void res.status(503).json({ jsonrpc: '2.0', error: { code: -32000, message: 'No documentation site is being served yet' }, id: null });
    const serve = async (site: SiteSource) => {
      let name: string;
      try {
        name = (await site.retrieval.info()).name;
      } catch (e) {
        const status = (e as { status?: number }).status ?? 500;
        if (status === 503) for (const [k, v] of Object.entries((e as { headers?: Record<string, string> }).headers ?? {})) res.setHeader(k, v);
        return void res.status(status).json({ jsonrpc: '2.0', error: { code: -32000, message: status === 503 ? (e as Error).message : 'Search is not available' }, id: null });
      }
      const server = buildMcpServer(site, name);
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
    };
    express.json({ limit: MAX_MCP_BODY })(req, res, (err?: unknown) => {
      if (err) return void res.status((err as { status?: number }).status === 413 ? 413 : 400).json({ jsonrpc: '2.0', error: { code: -32700, message: 'Request body is not JSON or too large' }, id: null });
      const calls = toolCalls(req.body);
      if (calls > MCP_MAX_CALLS) return void res.status(400).json({ jsonrpc: '2.0', error: { code: -32600, message: `${calls} tool calls in one request; at most ${MCP_MAX_CALLS} are accepted` }, id: null });
      // Every tool call is a request against the per-client limit; a request without one counts once.
      if (limited(res, limiter.hit(req.ip ?? 'unknown', Math.max(1, calls)))) return;
      void serve(site);
    });
  });
  const notAllowed = (res: Response) =>
    void res.status(405).setHeader('Allow', 'POST').json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this server is stateless; POST JSON-RPC messages' }, id: null });
  // A browser asking for /mcp gets the docs site (a page may live there); an MCP client's stream request gets 405.
  router.get(MCP_PATH, (req, res, next) => ((req.get('accept') ?? '').includes('text/event-stream') ? notAllowed(res) : next()));
  router.delete(MCP_PATH, (_req, res) => notAllowed(res));
  return router;
}
