import { Router } from 'express';
import type { Config } from '../../config/schema.js';
import type { AppContext } from '../context.js';
import type { Feature } from '../feature.js';
import type { ServedSite } from '../site/served-site.js';
import { createMcpRouter } from './mcp-router.js';
import { retrievalFor } from './retrieval.js';

/**
 * Readers' assistant, MCP server and discovery API over the served site (issue 21,
 * docs/assistant.md). Everything reads the bundle being served: its section index and `.md` pages.
 */
export function createAssistantFeature(ctx: AppContext, deps: { servedSite: () => ServedSite | undefined }): Feature {
  let config: Readonly<Config> = ctx.config;
  const site = () => {
    const s = deps.servedSite();
    if (!s) return undefined;
    const retrieval = retrievalFor(s);
    return { retrieval, name: retrieval.name, site: s };
  };
  const siteRouter = Router();
  siteRouter.use(createMcpRouter({ config: () => config, now: () => ctx.clock.now().getTime(), retrieval: site, log: ctx.log }));
  return {
    name: 'assistant',
    siteRouter,
    ready: () => ({ ok: true, critical: false, detail: config.assistant.baseUrl && config.assistant.model ? `model ${config.assistant.model}` : 'assistant off (assistant.baseUrl, assistant.model not set); MCP and discovery search still served' }),
    reload: (next) => {
      config = next;
    },
  };
}
