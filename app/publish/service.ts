import fs from 'node:fs';
import path from 'node:path';
import client from 'prom-client';
import type { Config } from '../../config/schema.js';
import type { Project } from '../../data/stores/projects.js';
import type { PublishRecord, PublishStages, PublishStore, PublishTrigger } from '../../data/stores/publishes.js';
import type { AppContext } from '../context.js';
import { tryRemoveTree } from '../fs-tree.js';
import { createLogThrottle } from '../http/log-throttle.js';
import { loadBundle } from '../loader/load-bundle.js';
import type { WarningSummary } from '../loader/render-warnings.js';
import { listVersions, pruneVersions, readActive, removeStaleTemps, writeActive, type ActiveRecord } from '../loader/sites-dir.js';
import { ServedSite } from '../site/served-site.js';
import { siteCsp } from '../site/site-csp.js';
import type { SiteRegistry } from '../sites/registry.js';
import { defaultVersion } from '../static-export/version.js';
import { filesChanged, syncCheckout } from './checkout.js';
import type { PublishExporter } from './exporter.js';
import { createLanes } from './lanes.js';
import { prepareSpareTree } from '../loader/spare-tree.js';
import { branchLabel, bundleFile, bundlesDir, previewSlot, pruneBundles, publishedSlot, renderMemoDir } from './slots.js';

export type PublishSettings = NonNullable<Config['projects'][number]['publish']>;

/** A kept version of a project's site. */
export interface KeptVersion {
  version: string;
  active: boolean;
  createdAt: string | null;
  pageCount: number | null;
  lastActivated: string;
}

export interface PreviewInfo {
  host: string;
  branch: string;
  version: string;
  expiresAt: string;
}

/** A request the service refuses (unknown version, no Git source...): the message says why. */
export class PublishRequestError extends Error {
  override name = 'PublishRequestError';
}

/**
 * The publish service (issue 19; docs/publishing.md). The one entry point for every trigger
 * (hosted update operations, Git webhooks, the branch poll, the CLI and the console):
 *
 * - `publish(projectId, trigger)`: export the project's source (a directory, or its branch on the
 *   Git host) and make the result the project's site through the loader's verification and
 *   atomic swap. One at a time per project; a trigger while one is waiting coalesces into it.
 * - `preview(projectId, branch, trigger)`: the same for another branch, served at its own host.
 * - `rollback(projectId, version, trigger)`: a kept version becomes the site again.
 * - `status(id)`, `history(projectId)`, `versions(projectId)`, `previews(projectId)`: what happened.
 *
 * Every call returns at once with a record (status `queued`); the work runs in the background and
 * a failure never replaces what is served.
 */
export function createPublishService(ctx: AppContext, deps: { store: PublishStore; registry: SiteRegistry; exporter: PublishExporter }) {
  const { store, registry } = deps;
  const log = ctx.log.child({ feature: 'publish' });
  const lanes = createLanes();
  const outcomes = new client.Counter({
    name: 'docs_appliance_publishes_total',
    help: 'Publishes, preview deployments and rollbacks that ended, by kind and outcome',
    labelNames: ['kind', 'outcome'] as const,
    registers: [ctx.metrics.registry],
  });
  const seconds = new client.Histogram({
    name: 'docs_appliance_publish_duration_seconds',
    help: 'Time from start to end of a publish or preview deployment (fetch, export, verification, activation)',
    labelNames: ['kind'] as const,
    buckets: [1, 2.5, 5, 10, 30, 60, 120, 300, 900, 1800],
    registers: [ctx.metrics.registry],
  });
  let running = 0;
  let config: Readonly<Config> = ctx.config;
  let stopping = new AbortController();
  const throttle = createLogThrottle(log);
  /** Called whenever a project's active version changes (replicas long-poll on it). */
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const l of [...listeners]) l();
  };
  const makeSite = (record: ActiveRecord) =>
    new ServedSite(
      record.dir,
      record.version,
      false,
      record.projectId,
      undefined,
      (err, rel) => throttle.warn(`fs:${err.code ?? 'unknown'}`, { code: err.code, path: rel.slice(0, 200) }, "site: a reader's path met a filesystem error; answered 404"),
      record.activatedAt || null,
    );

  const settingsOf = (projectId: string): PublishSettings => config.projects.find((p) => p.id === projectId)?.publish ?? { source: 'directory', docsPath: '', poll: true };
  const projectOf = (projectId: string): Project => {
    const p = ctx.stores.projects.get(projectId);
    if (!p) throw new PublishRequestError(`project ${projectId} does not exist`);
    return p;
  };
  const branchOf = (p: Project) => p.branch ?? 'main';

  /** Where the docs come from for this branch: the checkout (git) or the directory, with commit details. */
  async function source(project: Project, branch: string, gitSource: boolean, signal: AbortSignal, id: string) {
    if (!gitSource) {
      if (project.sourceDir === null) throw new PublishRequestError(`project ${project.id} has no sourceDir to publish from: set its sourceDir, or publish.source "git"`);
      const commit = await defaultVersion(project.sourceDir, '');
      return { docsRoot: project.sourceDir, commit: commit || null, message: null, author: null, checkout: undefined };
    }
    store.log(id, `fetching ${branch} from the repository`);
    const co = await syncCheckout(config.stateDir, project, branch, signal);
    const docsPath = settingsOf(project.id).docsPath;
    const docsRoot = path.join(co.dir, docsPath);
    if (!fs.existsSync(docsRoot)) throw new PublishRequestError(`the docs path "${docsPath}" does not exist on ${branch} at ${co.commit.slice(0, 12)}`);
    // The branch decides what the docs path is: a link in it must not lead the export out of the checkout.
    const real = fs.realpathSync(docsRoot);
    const realCheckout = fs.realpathSync(co.dir);
    if (real !== realCheckout && !real.startsWith(realCheckout + path.sep)) throw new PublishRequestError(`the docs path "${docsPath}" leads outside the repository (a symbolic link) on ${branch}; refused`);
    return { docsRoot, commit: co.commit, message: co.message, author: co.author, checkout: co.dir };
  }

  /** Export, verify and extract into `slot`; the caller activates the result. */
  async function build(record: PublishRecord, project: Project, slot: string, branch: string, gitSource: boolean, signal: AbortSignal, stages: PublishStages) {
    const clock = stageClock();
    const src = await source(project, branch, gitSource, signal, record.id);
    stages.source = clock.lap();
    const last = store.lastSuccess(project.id);
    const diff = src.checkout && src.commit && record.kind === 'publish' ? await filesChanged(src.checkout, project, last?.commitSha ?? null, src.commit).catch(() => null) : null;
    const version = `${src.commit ? src.commit.slice(0, 12) : 'src'}-${record.id.slice(-8)}`;
    store.setOutcome(record.id, { commitSha: src.commit, commitMessage: src.message, commitAuthor: src.author, filesChanged: diff, version });
    store.log(record.id, `exporting ${src.commit ? `commit ${src.commit.slice(0, 12)}` : 'the source directory'} as version ${version}`);
    fs.mkdirSync(bundlesDir(slot), { recursive: true });
    const partial = path.join(bundlesDir(slot), `.partial-${record.id}.zip`);
    try {
      const settings = config.projects.find((p) => p.id === project.id);
      const exported = await deps.exporter.run({
        sourceDir: src.docsRoot,
        outZip: partial,
        projectId: project.id,
        domain: project.domain,
        version,
        ...(settings?.componentScripts === false ? { componentScripts: false } : {}),
        // Reader access is rendered into the bundle (its access map): turning `auth` on needs a publish.
        ...(settings?.auth ? { readerAccess: true } : {}),
        contentSecurityPolicy: siteCsp(config, project.id),
        // Per slot: the live site and each preview keep their own, removed with the slot.
        memoDir: renderMemoDir(slot),
        signal,
      });
      stages.export = clock.lap();
      stages.exportStages = exported.timings;
      if (exported.render) stages.render = exported.render;
      store.log(record.id, `exported ${exported.pageCount} pages; verifying the bundle`);
      const se = config.staticExport;
      // Files unchanged since the served version are linked from it, not inflated again.
      const served = readActive(slot);
      const loaded = await loadBundle({
        stateDir: slot,
        bundleUrl: partial,
        version,
        ...(served && !served.mounted && fs.existsSync(served.dir) ? { reuseFrom: served.dir } : {}),
        spareTree: true,
        limits: { maxEntries: se.maxEntries, maxUncompressedBytes: se.maxUncompressedBytes },
        verifyTimeoutMs: se.verifyTimeoutMs,
        fetch: se.fetch,
        signal,
        log,
      });
      fs.renameSync(partial, bundleFile(slot, path.basename(loaded.dir)));
      stages.verify = clock.lap();
      return { loaded, pageCount: exported.pageCount, commit: src.commit };
    } finally {
      fs.rmSync(partial, { force: true });
    }
  }

  // Activation is timed on the records' clock, so a record's start and end bracket it.
  const activate = (slot: string, projectId: string, dir: string, version: string, source: string): ActiveRecord => {
    const record: ActiveRecord = { version, dir, projectId, mounted: false, source, activatedAt: ctx.clock.now().toISOString() };
    writeActive(slot, record);
    return record;
  };

  /** Run one record to its end: success or failure with the reason (file:line from the renderer). */
  async function execute(record: PublishRecord, work: (signal: AbortSignal, stages: PublishStages) => Promise<string>): Promise<void> {
    const started = performance.now();
    store.start(record.id);
    running += 1;
    const signal = AbortSignal.any([stopping.signal, AbortSignal.timeout(config.publish.timeoutSeconds * 1000)]);
    // Filled in by the work as each stage ends; kept for a failure too (where it stopped shows).
    const stages: PublishStages = {};
    try {
      const summary = await work(signal, stages);
      store.setStages(record.id, stages);
      store.finish(record.id, 'success', summary, started);
      outcomes.inc({ kind: record.kind, outcome: 'success' });
      if (record.kind !== 'rollback') seconds.observe({ kind: record.kind }, (performance.now() - started) / 1000);
      log.info({ statusId: record.id, projectId: record.projectId, kind: record.kind, trigger: record.trigger, ms: Math.round(performance.now() - started) }, summary);
    } catch (err) {
      const reason = stopping.signal.aborted ? 'the appliance stopped during the publish' : signal.aborted ? `the publish took longer than ${config.publish.timeoutSeconds} s (publish.timeoutSeconds)` : (err as Error).message;
      for (const line of reason.split('\n').slice(0, 50)) store.log(record.id, line);
      // The renderer's message is a headline ("2 files failed to render:") and one file:line a line.
      const lines = reason.split('\n').map((l) => l.trim()).filter(Boolean);
      const headline = lines[0]?.endsWith(':') && lines[1] ? `${lines[0]} ${lines[1]}${lines.length > 2 ? ' …' : ''}` : (lines[0] ?? 'unknown error');
      const summary = `${record.kind === 'preview' ? 'Preview' : record.kind === 'rollback' ? 'Rollback' : 'Publish'} failed; the site served before is unchanged: ${headline}`;
      store.setStages(record.id, stages);
      store.finish(record.id, 'failure', summary, started);
      outcomes.inc({ kind: record.kind, outcome: 'failure' });
      log.warn({ statusId: record.id, projectId: record.projectId, kind: record.kind, trigger: record.trigger, err: reason.slice(0, 2000) }, 'publish failed; the site served before is unchanged');
    } finally {
      running -= 1;
    }
  }

  /**
   * After a version goes live, the slot's next extraction gets its directory tree made in the
   * background (app/loader/spare-tree.ts): not part of this publish's time, nor of the next one's.
   * Only for the published slot: a preview's slot is removed when it expires, which must not
   * race a tree being made in it.
   * One at a time per slot; `idle` and `stop` wait for them, so nothing writes into a state
   * directory after its owner thinks the service is done.
   */
  const spares = new Map<string, Promise<void>>();
  const prepareSpare = (slot: string, dir: string): void => {
    const signal = stopping.signal;
    const next: Promise<void> = (spares.get(slot) ?? Promise.resolve())
      .then(() => prepareSpareTree(slot, dir, signal))
      .catch((err: unknown) => log.debug({ err: (err as Error).message, slot }, 'spare directory tree not made; the next publish makes its directories itself'))
      .finally(() => {
        if (spares.get(slot) === next) spares.delete(slot);
      });
    spares.set(slot, next);
  };
  const sparesSettled = async (): Promise<void> => {
    while (spares.size > 0) await Promise.allSettled([...spares.values()]);
  };

  const publishWork = (record: PublishRecord) =>
    execute(record, async (signal, stages) => {
      const project = projectOf(record.projectId);
      const slot = publishedSlot(config.stateDir, project.id);
      const gitSource = settingsOf(project.id).source === 'git';
      const built = await build(record, project, slot, branchOf(project), gitSource, signal, stages);
      const clock = stageClock();
      const active = activate(slot, project.id, built.loaded.dir, built.loaded.version, `publish ${record.id}`);
      registry.setPublished(project.id, makeSite(active));
      stages.activate = clock.lap();
      pruneVersions(slot, config.staticExport.keepVersions, active.dir, log);
      pruneBundles(slot);
      prepareSpare(slot, active.dir);
      changed();
      return `Published version ${built.loaded.version} (${built.pageCount} pages${built.commit ? `, commit ${built.commit.slice(0, 12)}` : ''}) at ${project.domain}`;
    });

  const previewHost = (project: Project, branch: string) => config.publish.previewHostPattern.replaceAll('{branch}', branchLabel(branch)).replaceAll('{domain}', project.domain).toLowerCase();
  const previewUrl = (host: string) => `${config.publish.previewScheme}://${host}/`;

  const service = {
    /** Publish the project's source now, or coalesce into the publish already waiting. */
    publish(projectId: string, trigger: PublishTrigger): PublishRecord {
      const project = projectOf(projectId);
      return lanes.enqueue(
        `site:${project.id}`,
        () => store.create({ projectId: project.id, kind: 'publish', trigger, branch: settingsOf(project.id).source === 'git' ? branchOf(project) : null }),
        publishWork,
        (waiting) => waiting.kind === 'publish',
      );
    },

    /** Deploy `branch` at its preview host (a redeployment when the preview exists). Needs the project's repository. */
    preview(projectId: string, branch: string, trigger: PublishTrigger): { record: PublishRecord; previewUrl: string } {
      const project = projectOf(projectId);
      if (!project.repository) throw new PublishRequestError('previews are built from branches of the project\'s Git repository, and this project has none (set "repository")');
      const host = previewHost(project, branch);
      const record = lanes.enqueue(
        `preview:${host}`,
        () => store.create({ projectId: project.id, kind: 'preview', trigger, branch, previewHost: host }),
        (rec) =>
          execute(rec, async (signal, stages) => {
            const slot = previewSlot(config.stateDir, project.id, host);
            const built = await build(rec, project, slot, branch, true, signal, stages);
            const clock = stageClock();
            const active = activate(slot, project.id, built.loaded.dir, built.loaded.version, `preview ${rec.id}`);
            registry.setPreview(host, project.id, makeSite(active));
            stages.activate = clock.lap();
            const expiresAt = new Date(ctx.clock.now().getTime() + config.publish.previewTtlHours * 3600_000).toISOString();
            store.savePreview({ host, projectId: project.id, branch, dir: active.dir, version: active.version, expiresAt });
            pruneVersions(slot, 1, active.dir, log);
            pruneBundles(slot);
            return `Preview of ${branch} deployed as ${built.loaded.version} (${built.pageCount} pages) at ${previewUrl(host)}; expires ${expiresAt}`;
          }),
        (waiting) => waiting.kind === 'preview',
      );
      return { record, previewUrl: previewUrl(host) };
    },

    /** Make a kept version the project's site again; recorded like a publish. */
    rollback(projectId: string, version: string, trigger: PublishTrigger): PublishRecord {
      const project = projectOf(projectId);
      const slot = publishedSlot(config.stateDir, project.id);
      const kept = listVersions(slot);
      const target = kept.find((v) => v.version === version) ?? kept.find((v) => v.name === version);
      if (!target) throw new PublishRequestError(`no kept version "${version}" for this project; kept: ${kept.map((v) => v.version).join(', ') || 'none'}`);
      return lanes.enqueue(
        `site:${project.id}`,
        () => store.create({ projectId: project.id, kind: 'rollback', trigger, version: target.version }),
        (rec) =>
          execute(rec, async (_signal, stages) => {
            if (!fs.existsSync(target.dir)) throw new PublishRequestError(`version ${target.version} is no longer kept`);
            const clock = stageClock();
            const active = activate(slot, project.id, target.dir, target.version, `rollback ${rec.id}`);
            registry.setPublished(project.id, makeSite(active));
            stages.activate = clock.lap();
            changed();
            return `Rolled back to version ${target.version} at ${project.domain}`;
          }),
      );
    },

    status: (id: string) => store.get(id),
    /** Publishes, previews and rollbacks running right now. */
    get running(): number {
      return running;
    },
    history: (projectId: string, limit?: number) => store.listForProject(projectId, limit),

    /**
     * The project's published site as the site listener serves it now (the registry: a CLI rollback
     * changes the pointer on disk before the next SIGHUP), and when that site was activated.
     */
    served(projectId: string): { version: string; activatedAt: string | null } | undefined {
      const site = registry.published(projectId);
      return site ? { version: site.version, activatedAt: site.activatedAt } : undefined;
    },

    /**
     * The render warnings of the bundle a publish or preview made, while its version is kept
     * (undefined for a publish that made none, or whose version was pruned).
     */
    warningsOf(record: PublishRecord): WarningSummary | undefined {
      if (!record.version || record.status !== 'success') return undefined;
      const slot = record.kind === 'preview' && record.previewHost ? previewSlot(config.stateDir, record.projectId, record.previewHost) : publishedSlot(config.stateDir, record.projectId);
      return listVersions(slot).find((v) => v.version === record.version)?.warnings ?? undefined;
    },

    /** The render warnings of a kept version of the project's site. */
    versionWarnings(projectId: string, version: string): WarningSummary | undefined {
      return listVersions(publishedSlot(config.stateDir, projectId)).find((v) => v.version === version)?.warnings ?? undefined;
    },

    /** The kept versions of the project's site, newest activation first. */
    versions(projectId: string): KeptVersion[] {
      const slot = publishedSlot(config.stateDir, projectId);
      const active = readActive(slot);
      return listVersions(slot).map((v) => ({ version: v.version, active: v.dir === active?.dir, createdAt: v.createdAt, pageCount: v.pageCount, lastActivated: v.lastActivated.toISOString() }));
    },

    /** The active version of every project with a published site (replicas follow this). */
    activeSites(): Array<{ projectId: string; domain: string; version: string; dirName: string; activatedAt: string }> {
      const out = [];
      for (const p of ctx.stores.projects.list()) {
        const a = readActive(publishedSlot(config.stateDir, p.id));
        if (a && fs.existsSync(a.dir)) out.push({ projectId: p.id, domain: p.domain, version: a.version, dirName: path.basename(a.dir), activatedAt: a.activatedAt });
      }
      return out;
    },

    previews(projectId?: string): PreviewInfo[] {
      return store
        .previews()
        .filter((p) => !projectId || p.projectId === projectId)
        .map((p) => ({ host: p.host, branch: p.branch, version: p.version, expiresAt: p.expiresAt }));
    },

    previewUrl,

    /** Remove previews past their expiry (cron). */
    expirePreviews(): number {
      const now = ctx.clock.now().toISOString();
      let removed = 0;
      for (const p of store.previews()) {
        if (p.expiresAt > now || lanes.busy(`preview:${p.host}`)) continue;
        registry.removePreview(p.host);
        store.deletePreview(p.host);
        tryRemoveTree(previewSlot(config.stateDir, p.projectId, p.host));
        removed += 1;
        log.info({ host: p.host, branch: p.branch }, 'preview expired and removed');
      }
      return removed;
    },

    /** Serve what was published before the restart (and the live previews); mark cut-off work failed. */
    restore(): void {
      registry.setDomains(ctx.stores.projects.list());
      for (const p of ctx.stores.projects.list()) {
        const a = readActive(publishedSlot(config.stateDir, p.id));
        if (a && fs.existsSync(a.dir)) registry.setPublished(p.id, makeSite(a));
      }
      const now = ctx.clock.now().toISOString();
      const retired = ctx.stores.projects.retired();
      for (const pv of store.previews()) {
        if (pv.expiresAt > now && !retired.has(pv.projectId) && fs.existsSync(pv.dir)) registry.setPreview(pv.host, pv.projectId, makeSite({ version: pv.version, dir: pv.dir, projectId: pv.projectId, mounted: false, source: 'preview', activatedAt: '' }));
      }
      for (const r of store.unfinished()) {
        store.start(r.id);
        store.finish(r.id, 'failure', 'Interrupted: the appliance stopped before this finished; the site served before is unchanged. Trigger it again.', performance.now());
      }
      // A crash mid-publish leaves a partial archive (and the loader's own temp dirs, which it removes).
      const publishedRoot = path.join(config.stateDir, 'published');
      for (const name of safeList(publishedRoot)) {
        const bundles = bundlesDir(path.join(publishedRoot, name));
        for (const leftover of safeList(bundles)) if (leftover.startsWith('.partial-')) fs.rmSync(path.join(bundles, leftover), { force: true });
        removeStaleTemps(path.join(publishedRoot, name), log);
      }
    },

    reload(next: Readonly<Config>): void {
      config = next;
      registry.setDomains(ctx.stores.projects.list());
      // A project the config no longer declares stops being served (its versions stay on disk).
      const retired = ctx.stores.projects.retired();
      const gone = [...registry.publishedSites().keys()].filter((id) => retired.has(id));
      for (const id of gone) registry.removePublished(id);
      if (gone.length) changed();
      for (const pv of store.previews()) if (retired.has(pv.projectId)) registry.removePreview(pv.host);
      // A `sites rollback --project` made from the CLI: serve the pointer it wrote.
      for (const p of ctx.stores.projects.list()) {
        const a = readActive(publishedSlot(config.stateDir, p.id));
        const current = registry.published(p.id);
        if (a && fs.existsSync(a.dir) && (current?.root !== a.dir || current.version !== a.version)) {
          registry.setPublished(p.id, makeSite(a));
          changed();
        }
      }
    },

    /** Subscribe to changes of any active version; returns the unsubscribe function. */
    onChange(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /**
     * A replica: make a bundle downloaded from the publishing appliance the project's site, through
     * the same verification, atomic swap and pruning as a publish. The archive is moved into the slot.
     */
    async adopt(projectId: string, archive: string, version: string, signal?: AbortSignal): Promise<void> {
      const slot = publishedSlot(config.stateDir, projectId);
      const se = config.staticExport;
      const loaded = await loadBundle({
        stateDir: slot,
        bundleUrl: archive,
        version,
        limits: { maxEntries: se.maxEntries, maxUncompressedBytes: se.maxUncompressedBytes },
        verifyTimeoutMs: se.verifyTimeoutMs,
        fetch: se.fetch,
        signal,
        log,
      });
      if (loaded.projectId !== null && loaded.projectId !== projectId) throw new PublishRequestError(`the bundle of ${version} belongs to project ${loaded.projectId}, not ${projectId}`);
      const active = activate(slot, projectId, loaded.dir, loaded.version, 'replica of the publishing appliance');
      registry.setPublished(projectId, makeSite(active));
      pruneVersions(slot, se.keepVersions, active.dir, log);
      changed();
    },

    /** Serve what a replica followed before its restart (projects it may not declare itself). */
    restoreFollowed(projectIds: readonly string[]): void {
      for (const id of projectIds) {
        const a = readActive(publishedSlot(config.stateDir, id));
        if (a && fs.existsSync(a.dir)) registry.setPublished(id, makeSite(a));
      }
    },

    /** Resolves when no publish, preview or rollback is waiting or running. */
    idle: async () => {
      await lanes.idle();
      await sparesSettled();
    },

    async stop(): Promise<void> {
      stopping.abort(new Error('the appliance is shutting down'));
      await lanes.idle();
      await sparesSettled();
      await deps.exporter.close();
      stopping = new AbortController();
    },
  };
  return service;
}

function safeList(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

export type PublishService = ReturnType<typeof createPublishService>;

/** Wall milliseconds since the last lap (or since it was made), rounded. */
/**
 * Laps in whole milliseconds, cut from the clock's running total rounded down: a record's stages
 * never add up to more than its `durationMs` (a sum of separately rounded laps could, by a
 * millisecond or two, now that a publish takes hundreds of milliseconds, not seconds).
 */
function stageClock(): { lap(): number } {
  const start = performance.now();
  let reported = 0;
  return {
    lap() {
      const total = Math.floor(performance.now() - start);
      const ms = total - reported;
      reported = total;
      return ms;
    },
  };
}
