import { Router } from 'express';
import type { Config } from '../../config/schema.js';
import type { AppContext } from '../context.js';
import type { Feature } from '../feature.js';
import type { ServedSite } from '../site/served-site.js';
import { servedSiteProjectResolver, type SiteProjectResolver } from '../analytics/project-resolver.js';
import { createAssistant } from './answer.js';
import { createConversationStore } from './conversations.js';
import { createAssistantAnalyticsRouter } from './analytics-router.js';
import { createDiscoveryRouter } from './discovery-router.js';
import { createAssistantKeyStore } from './keys-store.js';
import { createMcpRouter } from './mcp-router.js';
import { sectionVectors, type SectionVectors } from './embeddings.js';
import { retrievalRegistry, type SiteRetrieval } from './retrieval.js';
import { viewRetrieval } from './view-retrieval.js';
import { viewOf } from '../site/access-gate.js';
import { ANONYMOUS, type ReaderView } from '../../renderer/access/contract.js';
import type { ReaderAccess } from '../reader-access/types.js';
import type { IncomingMessage } from 'node:http';
import { createRetrievalHost } from '../retrieval/host.js';
import type { SiteSource } from './answer.js';
import { createAssistantSiteRouter } from './site-router.js';

/**
 * Readers' assistant, MCP server and discovery API over the served site (issue 21,
 * docs/assistant.md). Everything reads the bundle being served: its section index and `.md` pages.
 */
export function createAssistantFeature(
  ctx: AppContext,
  deps: {
    servedSite: () => ServedSite | undefined;
    siteFor?: (host: string | undefined) => ServedSite | undefined;
    /** Every site served now at its own host name (published projects), besides servedSite. */
    publishedSites?: () => Iterable<ServedSite>;
    resolveProject?: SiteProjectResolver;
    /** Reader sign-in (issue 40): the site assistant retrieves what the reader's view may see. */
    readerAccess?: ReaderAccess;
  },
): Feature {
  let config: Readonly<Config> = ctx.config;
  const host = createRetrievalHost({ stateDir: ctx.config.stateDir, log: ctx.log });
  const registry = retrievalRegistry(host);
  // Section vectors per served site and embeddings settings: a new bundle or SIGHUP'd settings make new ones.
  const vectorsBySite = new WeakMap<object, { cfg: unknown; vectors: SectionVectors }>();
  const vectorsFor = async (s: ServedSite, retrieval: SiteRetrieval): Promise<SectionVectors | undefined> => {
    const cfg = config.assistant.embeddings;
    if (!cfg) return undefined;
    const { sectionCount } = await retrieval.info();
    if (sectionCount === 0) return undefined;
    let entry = vectorsBySite.get(s);
    if (!entry || entry.cfg !== cfg) {
      entry = { cfg, vectors: sectionVectors({ stateDir: ctx.config.stateDir, bundleKey: `${s.version}\n${s.root}`, sectionCount, readSections: (o, n) => retrieval.sectionRange(o, n), cfg, env: process.env, log: ctx.log }) };
      vectorsBySite.set(s, entry);
    }
    return entry.vectors;
  };
  const servedAt = (host?: string) => (host !== undefined && deps.siteFor ? deps.siteFor(host) : deps.servedSite());
  // The site a request is about: chosen by host name when several projects' sites are served (app/sites).
  // A bundle with reader access is searched through the caller's view (ANONYMOUS unless a reader's session says otherwise).
  const site = (host?: string, view: ReaderView = ANONYMOUS): SiteSource | undefined => {
    const s = servedAt(host);
    if (!s) return undefined;
    const retrieval = registry.for(s);
    const visibleRetrieval = s.access ? viewRetrieval(retrieval, s.access, view) : retrieval;
    return { retrieval: visibleRetrieval, site: s, projectId: s.projectId, vectors: () => vectorsFor(s, retrieval) };
  };
  const readerView = (req: IncomingMessage): ReaderView => {
    const s = servedAt(req.headers.host);
    return s?.access ? viewOf(deps.readerAccess, req, s.projectId) : ANONYMOUS;
  };
  // Build (or reopen) a site's search index in the retrieval thread, once, and make its section
  // vectors when configured, so both are ready by the time a reader asks something.
  const prepare = (s: ServedSite) => {
    const retrieval = registry.for(s);
    retrieval
      .build()
      .then(() => vectorsFor(s, retrieval))
      .catch((err: unknown) => ctx.log.warn({ err: (err as Error).message, root: s.root }, 'assistant: the search index could not be built yet'));
  };
  // Each served site is prepared once: when it appears (warmServed, every 2 s) or, for a preview,
  // at its first page view. "Is a site served here?" itself costs a lookup.
  const warmed = new WeakSet<ServedSite>();
  const warm = (s: ServedSite) => {
    if (warmed.has(s)) return;
    warmed.add(s);
    prepare(s);
  };
  const siteReady = (h: string | undefined) => {
    const s = servedAt(h);
    if (s) warm(s);
    return !!s;
  };
  const warmServed = () => {
    for (const s of [deps.servedSite(), ...(deps.publishedSites?.() ?? [])]) if (s) warm(s);
  };
  let warmTimer: NodeJS.Timeout | undefined;
  const now = () => ctx.clock.now();
  const conversations = createConversationStore(ctx.db, now);
  const assistant = createAssistant({ config: () => config, site, conversations, log: ctx.log, now, env: process.env });
  const resolveProject = deps.resolveProject ?? servedSiteProjectResolver(ctx.stores, deps.servedSite);
  const siteRouter = Router();
  siteRouter.use(createMcpRouter({ config: () => config, now: () => now().getTime(), site, log: ctx.log }));
  siteRouter.use(createAssistantSiteRouter({ config: () => config, now: () => now().getTime(), assistant, resolveProject, siteReady, readerView, log: ctx.log }));
  const keys = createAssistantKeyStore(ctx.db, now);
  const adminPublicRouter = createDiscoveryRouter({ config: () => config, stores: ctx.stores, keys, assistant, site, now: () => now().getTime(), log: ctx.log });
  return {
    name: 'assistant',
    siteRouter,
    adminPublicRouter,
    adminRouter: createAssistantAnalyticsRouter({ stores: ctx.stores, conversations }),
    ready: () => ({ ok: true, critical: false, detail: config.assistant.baseUrl && config.assistant.model ? `model ${config.assistant.model}` : 'assistant off (assistant.baseUrl, assistant.model not set); MCP and discovery search still served' }),
    cron: [
      {
        // Conversations follow the reader-analytics retention (analytics.rawRetentionDays).
        name: 'assistant-retention',
        schedule: '23 3 * * *',
        run: () => ({ deleted: conversations.deleteBefore(new Date(now().getTime() - config.analytics.rawRetentionDays * 86_400_000)) }),
      },
    ],
    start: () => {
      warmServed();
      // Sites are swapped in by the loader and by publishing; a look every 2 s finds each new one.
      warmTimer = setInterval(warmServed, 2_000);
      warmTimer.unref();
    },
    reload: (next) => {
      config = next;
    },
    stop: async () => {
      clearInterval(warmTimer);
      await host.close();
    },
  };
}
