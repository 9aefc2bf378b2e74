import { Router } from 'express';
import type { Config } from '../../config/schema.js';
import type { AppContext } from '../context.js';
import type { Feature, ReadyCheck, SiteReadiness } from '../feature.js';
import { redactUrl } from '../logger.js';
import { createSiteLoader, REFUSED_HINT, type SiteLoader } from '../loader/site-loader.js';
import { readActive } from '../loader/sites-dir.js';
import { EXAMPLE_SOURCE, exampleProject, exportExample, firstStartLabel, rendererExport, type ExportFn } from './example-default.js';
import { createCacheHitPath } from './cache-hit-path.js';
import { SIGN_IN_EVERYTHING } from './access-gate.js';
import { createLogThrottle } from '../http/log-throttle.js';
import { ServedSite, type FsErrorReporter } from './served-site.js';
import { createSiteHandler } from './site-handler.js';
import { siteCsp } from './site-csp.js';
import { chooseSite, type SiteChoice } from '../sites/choose.js';
import type { SiteRegistry } from '../sites/registry.js';
import { notHerePage } from './unavailable.js';
import { REVALIDATE } from './cache-policy.js';
import { securityHeaders } from './security-headers.js';
import type { IncomingMessage } from 'node:http';
import type { ReaderAccess } from '../reader-access/types.js';

export interface SiteFeatureOptions {
  /** Replaces the renderer for the first-start example export (tests). */
  exportSite?: ExportFn;
  /** Extra CA for https bundle URLs (tests); operators set NODE_EXTRA_CA_CERTS. */
  ca?: string | Buffer;
  /** Sites served at their own host names (published projects, previews); see app/sites. */
  registry?: SiteRegistry;
  /** Reader sign-in (issue 40, app/reader-access); without it access sites serve public files only. */
  readerAccess?: ReaderAccess;
}

/** What search engines are told about a branch preview. */
export const PREVIEW_ROBOTS = 'noindex, nofollow';

export interface SiteFeature extends Feature {
  loader: SiteLoader;
  /** The single-site bundle (staticExport, first-start example, `sites rollback`) served right now, if any. */
  current(): ServedSite | undefined;
  /** The site a request with this Host header is answered from, if any. */
  siteFor(host: string | undefined): ServedSite | undefined;
  /** Resolves when no load or example export is running. */
  idle(): Promise<void>;
  /** SIGHUP: re-run the loader with the new staticExport block (a failure keeps the current site). */
  reload(config: Readonly<Config>): Promise<void>;
}

/**
 * The served docs site: the loader keeps `<stateDir>/sites` and the active pointer, this feature
 * holds the in-memory reference (swapped in one assignment, so in-flight requests finish on the
 * old directory) and answers every site request the other features did not.
 */
export function createSiteFeature(ctx: AppContext, options: SiteFeatureOptions = {}): SiteFeature {
  let current: ServedSite | undefined;
  let config = ctx.config;
  let exporting: Promise<void> | undefined;
  const exportAbort = new AbortController();

  // A reader chooses the path, so these lines are throttled: one per error code a minute.
  const throttle = createLogThrottle(ctx.log);
  const onFsError: FsErrorReporter = (err, rel) =>
    throttle.warn(`fs:${err.code ?? 'unknown'}`, { code: err.code, path: rel.slice(0, 200) }, "site: a reader's path met a filesystem error; answered 404");

  const loader = createSiteLoader({
    stateDir: ctx.config.stateDir,
    settings: ctx.stores.settings,
    log: ctx.log,
    ca: options.ca,
    onActivate: (record) => {
      current = new ServedSite(record.dir, record.version, record.mounted, record.projectId, undefined, onFsError, record.activatedAt || null);
    },
  });

  const registry = options.registry;
  // A bundle without an access map, of a project that has `auth` now: served as a twin that needs
  // sign-in for everything (access-gate.ts, SIGN_IN_EVERYTHING) until a publish renders the map.
  const guarded = new WeakMap<ServedSite, ServedSite>();
  const guard = (site: ServedSite): ServedSite => {
    if (site.access || !site.projectId || !options.readerAccess?.enabled(site.projectId)) return site;
    let twin = guarded.get(site);
    if (!twin) guarded.set(site, (twin = new ServedSite(site.root, site.version, site.mounted, site.projectId, undefined, onFsError, site.activatedAt, SIGN_IN_EVERYTHING)));
    return twin;
  };
  const choose = (host: string | undefined): SiteChoice => {
    const choice = chooseSite(registry, current, host, config.publish.defaultProject);
    if (!choice.site) return choice;
    const site = guard(choice.site);
    return site === choice.site ? choice : { ...choice, site };
  };
  const pick = (req: IncomingMessage) => choose(req.headers.host).site;

  const makeHandler = (csp: string) =>
    createSiteHandler({
      current: pick,
      contentSecurityPolicy: csp,
      ...(options.readerAccess ? { readerAccess: options.readerAccess } : {}),
      onError: (err, req) => ctx.log.error({ err, url: redactUrl(req.url ?? '/') }, 'site request failed'),
    });
  // The operator's policy, its connect-src extended by the playground origins of the project whose
  // site answers (sites at their own host names may belong to different projects). One handler,
  // cache-hit path and header set per project, made on first use and dropped on reload.
  const cspOf = siteCsp;
  interface Paths { handler: ReturnType<typeof makeHandler>; fastPath: ReturnType<typeof makeFastPath>; security: ReturnType<typeof securityHeaders> }
  const byProject = new Map<string, Paths>();
  const pathsFor = (site: ServedSite | undefined): Paths => {
    const key = site?.projectId ?? '';
    const known = byProject.get(key);
    if (known) return known;
    const csp = cspOf(config, site?.projectId);
    const paths: Paths = { handler: makeHandler(csp), fastPath: makeFastPath(csp), security: securityHeaders(csp) };
    byProject.set(key, paths);
    return paths;
  };
  const router = Router();
  router.use((req, res, next) => {
    const choice = choose(req.headers.host);
    if (choice.site === undefined && choice.reason === 'not-here') {
      const body = notHerePage();
      res.writeHead(404, { ...pathsFor(undefined).security, 'content-type': 'text/html; charset=utf-8', 'content-length': body.length, 'cache-control': REVALIDATE });
      return void res.end(req.method === 'HEAD' ? undefined : body);
    }
    if (choice.site && choice.preview) res.setHeader('X-Robots-Tag', PREVIEW_ROBOTS);
    pathsFor(choice.site).handler(req, res, next);
  });

  // Cache hits are counted, not logged (docs/loader.md, "What the site listener logs"): plain
  // integers per method and status (no key string made per hit), added to the shared request
  // counter once a second.
  const hits = new Map<string, Map<number, number>>();
  const flushHits = () => {
    for (const [method, byStatus] of hits) {
      for (const [status, n] of byStatus) if (n) ctx.metrics.httpRequests.inc({ listener: 'site', method, route: 'site-cache', status: String(status) }, n);
      byStatus.clear();
    }
  };
  let flushTimer: NodeJS.Timeout | undefined;
  const makeFastPath = (csp: string) =>
    createCacheHitPath({
      contentSecurityPolicy: csp,
      count: (method, status) => {
        let byStatus = hits.get(method);
        if (!byStatus) hits.set(method, (byStatus = new Map()));
        byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      },
    });

  const startExample = () => {
    loader.setPhase('exporting');
    exporting = exportExample(ctx, options.exportSite ?? rendererExport, exportAbort.signal)
      .then((site) => {
        if (exportAbort.signal.aborted) return;
        if (site) loader.activateLoaded({ ...site, source: EXAMPLE_SOURCE }, config.staticExport.keepVersions);
        loader.setPhase('idle');
        if (!site) ctx.log.info('first start: no single example project to export; the site answers 503 until a bundle is configured');
      })
      .catch((err: unknown) => {
        if (exportAbort.signal.aborted) return;
        const reason = (err as Error).message;
        const project = exampleProject(ctx);
        const what = project ? firstStartLabel(project) : 'the example docs';
        ctx.log.error({ err: reason }, `first start: exporting ${what} failed`);
        loader.setPhase('idle', `exporting ${what} failed: ${reason}`);
      })
      .finally(() => {
        exporting = undefined;
      });
  };

  /**
   * Readiness tells the truth about readers (docs/operations.md, "Readiness"): each site this
   * appliance is configured to serve (the single-site bundle when staticExport names one, the
   * first-start example while it is exported, every published project, every site a replica follows) is
   * listed as served or not. None of them served: critical (/readyz 503, readers get 503 or 404
   * everywhere). Some: not critical (/readyz 200 "degraded"), since taking the listener out of
   * rotation would stop the sites it does serve. None configured: ready for the admin API.
   */
  const ready = (): ReadyCheck => {
    const s = loader.status;
    const retry = s.nextRetryAt ? `; retrying in ${Math.max(0, Math.round((s.nextRetryAt.getTime() - Date.now()) / 1000))} s` : '';
    const lastLoad = s.lastError ? `last load ${s.refused ? 'refused' : 'failed'}: ${s.lastError}${s.refused ? ` (${REFUSED_HINT})` : ''}` : '';
    const failed = lastLoad && `${lastLoad}${s.phase === 'loading' ? '' : retry}`;
    const site = current;
    const se = config.staticExport;
    const sites: SiteReadiness[] = [];
    if (site) {
      const how = site.mounted ? 'mounted' : s.fromCache ? 'from cache' : '';
      const detail = `serving ${site.version}${how ? ` (${how})` : ''}${s.phase === 'loading' ? '; loading a new bundle' : ''}${failed ? `; ${failed}` : ''}`;
      sites.push({ site: 'bundle', served: true, detail, ...(s.refused ? { refused: true } : {}) });
    } else if ((se.enabled && se.bundleUrl) || s.phase === 'exporting') {
      const detail = s.phase === 'exporting' ? 'exporting the example docs' : s.phase === 'loading' ? `loading the bundle${failed ? ` again; ${failed}` : ''}` : failed || 'no bundle loaded yet';
      sites.push({ site: 'bundle', served: false, detail, ...(s.refused ? { refused: true } : {}) });
    }
    for (const [projectId, served] of registry?.publishedSites() ?? []) sites.push({ site: registry!.domainOf(projectId) ?? projectId, served: true, detail: `serving ${served.version}` });
    for (const f of registry?.followedSites() ?? []) {
      if (!registry!.published(f.projectId)) sites.push({ site: f.domain, served: false, detail: 'followed, not downloaded yet' });
    }
    const previews = registry ? registry.size - registry.publishedSites().size : 0;
    const unserved = sites.filter((x) => !x.served);
    if (sites.length === 0) {
      const detail = previews > 0 ? `serving ${previews} preview(s) only` : failed || (se.enabled ? 'no bundle configured (staticExport.bundleUrl is not set) and no site published' : 'no bundle configured (staticExport.enabled is false) and no site published');
      return { ok: true, critical: false, detail, sites };
    }
    if (sites.length === 1) return { ok: sites[0]!.served, critical: !sites[0]!.served, detail: sites[0]!.detail!, sites };
    const detail = unserved.length
      ? `serving ${sites.length - unserved.length} of ${sites.length} sites; not served: ${unserved.map((x) => `${x.site} (${x.detail})`).join(', ')}`
      : `serving ${sites.length} sites`;
    return { ok: unserved.length === 0, critical: unserved.length === sites.length, detail, sites };
  };

  return {
    name: 'site',
    siteRouter: router,
    siteFastPath: (req, res) => {
      // The site is chosen once per request and handed to the cache-hit path. Without sites at
      // their own host names this is chooseSite's answer (the single-site bundle) without its
      // per-request object.
      let site: ServedSite | undefined;
      if (registry?.size) {
        const choice = choose(req.headers.host);
        if (!choice.site) return false;
        site = choice.site;
        // writeHead merges headers set before it, so the cached header lists stay shared.
        if (choice.preview) res.setHeader('X-Robots-Tag', PREVIEW_ROBOTS);
      } else {
        if (!current) return false;
        site = guard(current);
      }
      return pathsFor(site).fastPath(req, res, site);
    },
    ready,
    loader,
    current: () => current,
    siteFor: (host) => choose(host).site,
    async idle() {
      while (exporting) await exporting;
      await loader.idle();
    },
    start() {
      flushTimer = setInterval(flushHits, 1000).unref();
      loader.removeStaleTemps();
      loader.restore();
      const se = config.staticExport;
      if (se.enabled) void loader.run(se);
      else if (!loader.active && config.site.exampleOnFirstStart) startExample();
    },
    async reload(next: Readonly<Config>) {
      config = next;
      byProject.clear();
      if (next.staticExport.enabled) {
        // A configured bundle wins over a first-start example export still running.
        if (exporting) {
          exportAbort.abort();
          await exporting;
        }
        await loader.run(next.staticExport);
        return;
      }
      // Nothing configured: still pick up a `sites rollback` made from the CLI.
      const onDisk = readActive(next.stateDir, ctx.stores.settings);
      if (onDisk && (onDisk.dir !== current?.root || onDisk.version !== current.version)) loader.restore();
    },
    async stop() {
      clearInterval(flushTimer);
      flushHits();
      exportAbort.abort();
      await exporting;
      await loader.stop();
    },
  };
}
