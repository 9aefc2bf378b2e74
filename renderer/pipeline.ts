import fs from 'node:fs';
import path from 'node:path';
import { createShardedIndexBuilder, emptyPartialIndex, MAX_SEARCH_TEXT, packPartialIndex, searchScopes } from './index-stage/search-index.js';
import { loadThemeAssets, renderNotFoundPage, renderRedirectPage, sharedSidebars } from './layout/index.js';
import { browserRuntime } from './islands/runtime.js';
import { loadSite } from './load/index.js';
import { ZipWriter } from './pack/zip.js';
import { divisionOf, inListedDivision } from './retrieval/page.js';
import { llmsLinks } from './retrieval/llms-links.js';
import { createRetrievalStage } from './retrieval/stage.js';
import { planSite } from './plan/index.js';
import { pageFilePath, pageHref } from './page-urls.js';
import type { RenderBatchResult, RenderedPageRef } from './pool/batch.js';
import { batchRanges, evenBatchRanges, type BatchRange } from './pool/batch-plan.js';
import { writeContextFile } from './pool/context-file.js';
import { RenderMemo, type MemoStats } from './memo/render-memo.js';
import { OrderedDispatcher } from './pool/ordered-dispatch.js';
import { createRenderPool, type RenderPool } from './pool/render-pool.js';
import { readRepoFile, readRepoText, resolveRepoFile } from './repo-files.js';
import { SEARCH_BASE_URL, SEARCH_ROOT } from './search-options.js';
import { pageRequirements } from './access/page-requirements.js';
import { specAccess as specAccessOf } from './access/spec-access.js';
import { specCopies } from './access/spec-copies.js';
import { buildBundleAccess, restrictedPages, shardScope } from './access/bundle-access.js';
import type { SearchScope } from './index-stage/scopes.js';
import { DEFAULT_SITE_CSP, metaPolicy } from './csp.js';
import { startTailwind, TAILWIND_ASSET } from './tailwind/index.js';
import {
  RenderError,
  type BuildWarning,
  type BundleManifest,
  type ExportProgress,
  type PlannedPage,
  type RenderContext,
  type RenderFailure,
  type SitePlan,
} from './types.js';
import { buildManifest, MANIFEST_PATH } from './write/manifest.js';
import { manifestRedirects, NGINX_REDIRECTS_PATH, nginxRedirects } from './write/nginx-redirects.js';
import { APPLIANCE_STAND_INS } from './write/appliance-stand-ins.js';
import { writeRedirectPages } from './write/redirect-pages.js';
import { SiteFiles } from './write/site-files.js';
import { buildRobots, buildSitemap } from './write/sitemap.js';
import { DirWriter, writeSiteToDir } from './write/write-dir.js';

/**
 * zlib level for pages, deflated in the workers. Measured on 45 KB pages: level 1 takes 0.4 ms a
 * page and level 6 1.7 ms, for output only 6 % smaller; pages repeat their sidebar, so even the
 * fastest level compresses them about 5:1. Other files use `compressionLevel` (default
 * OTHER_DEFLATE_LEVEL).
 */
const PAGE_DEFLATE_LEVEL = 1;

/**
 * zlib level for the other files. Measured on a 10,000-page site's 9.6 MB search index: level 4
 * takes 128 ms for 2.56 MB, level 6 325 ms for 2.48 MB (3 % smaller); the index is packed after
 * the last page, on the critical path.
 */
const OTHER_DEFLATE_LEVEL = 4;

/** How many failures an ExportError's message lists (all of them stay in `failures`). */
const LISTED_FAILURES = 5;

/** The export failed: one or more pages (or the config) could not be rendered. */
export class ExportError extends Error {
  readonly failures: RenderFailure[];
  constructor(failures: RenderFailure[]) {
    const lines = failures.slice(0, LISTED_FAILURES).map(formatFailure);
    const more = failures.length > LISTED_FAILURES ? `\n…and ${failures.length - LISTED_FAILURES} more` : '';
    super(`${failures.length === 1 ? '1 file' : `${failures.length} files`} failed to render:\n${lines.join('\n')}${more}`);
    this.name = 'ExportError';
    this.failures = failures;
  }
}

function byLocation(a: RenderFailure, b: RenderFailure): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  if ((a.line ?? 0) !== (b.line ?? 0)) return (a.line ?? 0) - (b.line ?? 0);
  const pa = a.path ?? '';
  const pb = b.path ?? '';
  return pa < pb ? -1 : pa > pb ? 1 : 0;
}

/** `guides/intro.mdx:12:3: Unclosed <Card>` */
export function formatFailure(f: RenderFailure): string {
  // A snippet's error names the page that imports it too: the snippet alone does not say which page is missing.
  const page = f.path !== undefined && !f.file.startsWith(f.path) ? ` (page ${f.path})` : '';
  return `${f.file}${f.line ? `:${f.line}${f.column ? `:${f.column}` : ''}` : ''}: ${f.message}${page}`;
}

export interface ExportOptions {
  sourceDir: string;
  outZip?: string;
  outDir?: string;
  jobId?: string;
  projectId?: string;
  domain?: string;
  version?: string;
  /** Fixed for reproducible bundles (manifest and zip timestamps come from it). */
  createdAt?: Date;
  paths?: string[];
  /** A shared pool (the export-job queue keeps one); without it the export starts and stops its own. */
  pool?: RenderPool;
  onProgress?: (p: ExportProgress) => void;
  signal?: AbortSignal;
  /** Pages per worker task; default scales with the site so every worker gets several tasks. */
  batchSize?: number;
  /** zlib level for every zip entry (default: 1 for pages, deflated in the workers; 4 for the rest). */
  compressionLevel?: number;
  /**
   * Export every page that renders and list the others in `failures` (and the manifest) instead of
   * failing the export. A broken docs.json still fails it: without it no page can be placed.
   */
  keepGoing?: boolean;
  /**
   * Ship the scripts of running components (default true). False: they are written as their
   * pre-rendered HTML only (the operator's per-project switch, `projects[].componentScripts`).
   */
  componentScripts?: boolean;
  /**
   * The site's Content-Security-Policy as the appliance will send it (`site.contentSecurityPolicy`
   * with the project's playground origins; renderer/csp.ts): every page carries it as a meta, so
   * the bundle keeps it on any host. Default: the appliance's default policy.
   */
  contentSecurityPolicy?: string;
  /**
   * Reader access (issue 40, docs/reader-access.md): work out each page's requirement and write
   * the bundle's `access` map and fragment markers. Off (the default, every project without
   * `auth`): the bundle is byte-for-byte what it is without this option.
   */
  readerAccess?: boolean;
  /**
   * A directory for this site's render memo (renderer/memo/render-memo.ts): batches whose inputs
   * and repository reads are unchanged since the export that stored them are reused, not
   * rendered. The output is the same either way. Ignored with `paths` (a partial export would
   * prune the rest).
   */
  memoDir?: string;
}

export interface ExportResult {
  manifest: BundleManifest;
  pageCount: number;
  warnings: BuildWarning[];
  /** Pages left out of a keepGoing export (always empty otherwise: failures throw ExportError). */
  failures: RenderFailure[];
  zipPath?: string;
  sizeBytes?: number;
  files: ReadonlyMap<string, Uint8Array>;
  /** Wall milliseconds per stage, plus `worker.*`: worker CPU milliseconds per step, summed over workers. */
  timings: Record<string, number>;
  /** With `memoDir`: pages whose batch was reused, and pages rendered. */
  memo?: MemoStats;
}

/**
 * The source's git commit, read from .git without running git (the image may not have it). Only
 * regular files inside the repository are read (a HEAD that links elsewhere gives no commit), a ref
 * must look like one, and only a 40-hex answer is taken: the version shows in the manifest and the
 * API, so nothing else read here may reach it.
 */
export function gitCommit(sourceDir: string): string | undefined {
  const read = (rel: string): string | undefined => {
    try {
      return readRepoText(sourceDir, rel, 64 * 1024).trim();
    } catch {
      return undefined;
    }
  };
  const head = read('.git/HEAD');
  if (head === undefined) return undefined;
  if (COMMIT_RE.test(head)) return head;
  const ref = /^ref: (refs\/[\w./-]+)$/.exec(head)?.[1];
  if (!ref || ref.split('/').some((part) => part === '' || part === '.' || part === '..')) return undefined;
  const loose = read(`.git/${ref}`);
  if (loose !== undefined) return COMMIT_RE.test(loose) ? loose : undefined;
  const packed = read('.git/packed-refs')?.split('\n').find((l) => l.endsWith(` ${ref}`))?.split(' ')[0];
  return packed !== undefined && COMMIT_RE.test(packed) ? packed : undefined;
}

const COMMIT_RE = /^[0-9a-f]{40}$/;

/** docs.json / mint.json as written (navigation groups' `public` is not in the normalised config). */
function readRawConfig(repoRoot: string, configFile: string): unknown {
  try {
    return JSON.parse(readRepoText(repoRoot, configFile)) as unknown;
  } catch {
    return undefined;
  }
}

export function renderContext(plan: SitePlan, themeAssets: Record<string, string>, componentScripts: boolean, csp: string, readerAccess = false): RenderContext {
  const pageIndex: RenderContext['pageIndex'] = {};
  for (const p of plan.pages) {
    const entry = { title: plan.pageTitles?.[p.slug] ?? p.slug, url: pageHref(p.slug), ...(p.sectionId ? { sectionId: p.sectionId } : {}) };
    pageIndex[p.slug] = entry;
    // `guides/index.mdx` is the page `guides`; links written as `/guides/index` still find it.
    if (/(^|\/)index\.mdx?$/.test(p.file) && p.slug !== 'index') pageIndex[`${p.slug}/index`] = entry;
  }
  const assets: Record<string, string> = {};
  for (const [file, bundlePath] of Object.entries(plan.assets)) assets[file] = `/${bundlePath}`;
  return {
    repoRoot: plan.repoRoot,
    config: plan.config,
    sections: plan.sections,
    globalLinks: plan.globalLinks,
    pageIndex,
    assets,
    themeAssets,
    ...(componentScripts ? {} : { componentScripts: false }),
    ...(readerAccess ? { readerAccess: true } : {}),
    metaCsp: metaPolicy(csp),
    ...(plan.apiDocs ? { apiDocs: plan.apiDocs } : {}),
  };
}

/** A file rendered in a worker into the site: its raw bytes, its deflated bytes, or both. */
function addRendered(site: SiteFiles, ref: RenderedPageRef, bytes: Uint8Array): void {
  const deflated = ref.deflated ? { data: bytes.subarray(ref.deflated.offset, ref.deflated.offset + ref.deflated.length), crc32: ref.deflated.crc32 } : undefined;
  if (ref.html) {
    site.add(ref.outputPath, bytes.subarray(ref.html.offset, ref.html.offset + ref.html.length), { sha256: ref.sha256, ...(deflated ? { deflated } : {}) });
  } else if (deflated) {
    site.addDeflated(ref.outputPath, { size: ref.size, sha256: ref.sha256, deflated });
  }
}

function asFailure(err: unknown): RenderFailure | undefined {
  if (err instanceof RenderError) {
    return { file: err.file, message: err.message, ...(err.line ? { line: err.line } : {}), ...(err.column ? { column: err.column } : {}) };
  }
  return undefined;
}

/** Pages per batch when a render memo is kept (see `memoDir`). */
const MEMO_BATCH_PAGES = 16;

/** The site's stylesheet from the memo when an export already compiled the same input (its file name hashes it). */
function memoTailwind(memo: RenderMemo | undefined, name: string, compile: () => ReturnType<typeof startTailwind>): ReturnType<typeof startTailwind> {
  const kept = memo?.text(name);
  if (kept !== undefined) return Promise.resolve({ css: kept, ms: 0 });
  return compile().then((css) => {
    if (memo && !css.warning) memo.saveText(name, css.css);
    return css;
  });
}

/**
 * Export a docs repository to a self-contained static site: load → plan → render (worker pool)
 * → index → write → pack. Search indexing runs on the main thread while workers render; pages
 * come back already deflated, so packing is mostly framing and writing.
 */
export async function exportSite(opts: ExportOptions): Promise<ExportResult> {
  const timings: Record<string, number> = {};
  let mark = performance.now();
  const lap = (name: string): void => {
    const now = performance.now();
    timings[name] = Math.round((now - mark) * 10) / 10;
    mark = now;
  };
  const progress = (p: ExportProgress): void => opts.onProgress?.(p);
  const signal = opts.signal;
  signal?.throwIfAborted();

  progress({ stage: 'load', pagesDone: 0, pagesPlanned: 0 });
  let plan: SitePlan;
  let configFile: string;
  try {
    const loaded = loadSite(opts.sourceDir);
    configFile = loaded.configFile;
    lap('load');
    progress({ stage: 'plan', pagesDone: 0, pagesPlanned: 0 });
    plan = planSite(loaded, opts.paths ? { paths: opts.paths } : {});
    lap('plan');
  } catch (err) {
    const f = asFailure(err);
    if (f) throw new ExportError([f]);
    throw err;
  }
  const pagesPlanned = plan.pages.length;
  const createdAt = opts.createdAt ?? new Date();
  const jobId = opts.jobId ?? 'local';
  const level = opts.compressionLevel ?? OTHER_DEFLATE_LEVEL;

  const theme = loadThemeAssets();
  const themeUrls: Record<string, string> = { 'search-index': SEARCH_BASE_URL };
  for (const a of theme) themeUrls[a.name] = `/${a.bundlePath}`;
  if (plan.tailwind) themeUrls[TAILWIND_ASSET] = `/${plan.tailwind.bundlePath}`;
  const scopes = searchScopes(plan.sections);
  const ctx = renderContext(plan, themeUrls, opts.componentScripts !== false, opts.contentSecurityPolicy ?? DEFAULT_SITE_CSP, opts.readerAccess === true);
  const requirements = opts.readerAccess ? pageRequirements(plan, readRawConfig(plan.repoRoot, configFile)) : undefined;
  if (requirements) ctx.pageAccess = restrictedPages(requirements);
  ctx.searchScopes = Object.fromEntries([...scopes.bySection].map(([id, scope]) => [id, scope.key]));
  const sidebars = sharedSidebars(ctx);
  if (sidebars.files.length > 0) ctx.sidebarFiles = sidebars.urls;
  // llms.txt lists the division (language, version) of the navigation's first visible page.
  const firstPage = plan.pages.find((p) => !p.hidden);
  const origin = opts.domain && opts.domain !== 'localhost' ? `https://${opts.domain}` : '';
  ctx.retrieval = { origin, indexing: plan.config.seo?.indexing ?? 'navigable', ...divisionOf(ctx, firstPage?.sectionId) };
  const contextFile = writeContextFile(ctx);
  const memo = opts.memoDir && !opts.paths ? new RenderMemo(opts.memoDir, plan.repoRoot, contextFile.hash) : undefined;
  lap('context');

  const pool = opts.pool ?? createRenderPool();
  const site = new SiteFiles();
  // Opened before rendering so that finished pages are packed while the rest still render.
  let zip: ZipWriter | undefined;
  // Reader access: each requirement's pages in shards of their own (renderer/access/bundle-access.ts).
  const shards = new Map<string, SearchScope>();
  const index = createShardedIndexBuilder(scopes.list, (id) => {
    const page = plan.pages[id];
    const sectionId = page?.sectionId;
    const scope = sectionId === undefined ? undefined : scopes.bySection.get(sectionId);
    if (!scope || !requirements || !page) return scope;
    const shard = shardScope(scope, requirements.get(page.slug) ?? 'signed-in');
    shards.set(shard.key, shard);
    return shard;
  });
  const assetUsers = new Map<string, Set<string>>();
  // Reader access: pages whose HTML carries markers, as the workers saw it.
  const markedPages = new Set<string>();
  const retrieval = createRetrievalStage({
    dir: path.dirname(contextFile.path),
    name: plan.config.name,
    level: opts.outZip ? (opts.compressionLevel ?? PAGE_DEFLATE_LEVEL) : undefined,
    ...(plan.config.markdown?.instructions ? { instructions: plan.config.markdown.instructions } : {}),
  });
  // A repository file at `<page>.md` stays what that path serves; the page's Markdown yields.
  const assetPaths = new Set(Object.values(plan.assets));
  const warnings: BuildWarning[] = [...plan.warnings];
  const failures: RenderFailure[] = [];
  let pagesDone = 0;
  const workerTimings: Record<string, number> = {};
  const islandFiles = new Map<string, string>();
  progress({ stage: 'render', pagesDone, pagesPlanned });
  // Queued ahead of the page batches: one worker compiles while the others render.
  const tailwindCss = plan.tailwind ? memoTailwind(memo, plan.tailwind.bundlePath, () => startTailwind(plan.tailwind!, pool, signal, plan.config.format)) : undefined;

  // Without a zip, pages go to outDir as they come (the zip, when there is one, holds them instead).
  const dirWriter = opts.outDir && !opts.outZip ? new DirWriter(opts.outDir) : undefined;
  try {
    if (opts.outZip) {
      fs.mkdirSync(path.dirname(path.resolve(opts.outZip)), { recursive: true });
      zip = await ZipWriter.open(opts.outZip, { createdAt, level });
    }
    // About eight batches per worker, big sites in batches of 64 so messaging stays cheap, and the
    // last ones in quarters (pool/batch-plan.ts) so that no worker waits long for the other's last.
    // With a memo, smaller batches: a one-page change renders its batch again, not 64 pages.
    const ranges = opts.batchSize
      ? evenBatchRanges(plan.pages.length, opts.batchSize)
      : batchRanges(plan.pages.length, Math.min(memo ? MEMO_BATCH_PAGES : 64, Math.max(4, Math.ceil(pagesPlanned / (pool.threads * 8)))), pool.threads);
    const planned = ranges.map((r) => plan.pages.slice(r.start, r.end));
    // Results are kept per batch and consumed in batch order, so the search index, warnings and
    // failures come out the same whatever order the workers finish in (deterministic bundles),
    // while indexing still overlaps rendering: each batch is indexed as soon as those before it are.
    // A consumed batch becomes null: its bytes are in the zip (or the site) by then, and holding
    // the result would keep every page's bytes alive to the end.
    const done: (RenderBatchResult | null | undefined)[] = new Array(planned.length);
    let indexed = 0;
    const workerCpu: Record<string, number> = {};
    const accept = (batchNo: number, pages: PlannedPage[], result: RenderBatchResult): void => {
      const bytes = new Uint8Array(result.buffer);
      for (const ref of result.pages) {
        addRendered(site, ref, bytes);
        if (ref.marked) markedPages.add(ref.outputPath);
        for (const url of ref.assets ?? []) {
          let users = assetUsers.get(url);
          if (!users) assetUsers.set(url, (users = new Set()));
          users.add(ref.slug);
        }
      }
      for (const [step, ms] of Object.entries(result.cpu)) workerCpu[step] = (workerCpu[step] ?? 0) + ms;
      for (const [file, code] of Object.entries(result.islandFiles ?? {})) islandFiles.set(file, code);
      done[batchNo] = result;
      for (let next = done[indexed]; next && indexed < planned.length; next = done[indexed]) {
        index.add(next.search);
        const batchBytes = new Uint8Array(next.buffer);
        retrieval.add(next.retrieval, batchBytes);
        const markdown = (next.markdown ?? []).filter((ref) => !assetPaths.has(ref.outputPath));
        for (const ref of markdown) addRendered(site, ref, batchBytes);
        warnings.push(...next.warnings);
        failures.push(...next.failures);
        // In plan order, whichever worker finished first, each page with its Markdown: the
        // output's order (and the zip's bytes) do not depend on the batch size.
        if ((zip || dirWriter) && (opts.keepGoing || failures.length === 0)) {
          const mdOf = new Map(markdown.map((ref) => [ref.slug, ref.outputPath]));
          const inOrder = next.pages.flatMap((ref) => [ref.outputPath, ...(mdOf.has(ref.slug) ? [mdOf.get(ref.slug) as string] : [])]);
          for (const file of inOrder) {
            if (zip) {
              zip.add(site, file);
              // Memory flat in site size: a framed page is read back from the zip if anyone asks.
              const at = zip.locate(file);
              if (at) site.release(file, at);
            } else {
              dirWriter?.write(site, file);
            }
          }
        }
        done[indexed] = null;
        indexed++;
      }
      pagesDone += pages.length;
      progress({ stage: 'render', pagesDone, pagesPlanned });
    };
    // Two batches per worker in flight (one running, one queued), started in plan order.
    const dispatcher = new OrderedDispatcher(planned.length, {
      lanes: pool.threads * 2,
      ahead: Math.max(8, pool.threads * 4),
      consumed: () => indexed,
      run: async (batchNo) => {
        const pages = planned[batchNo] as PlannedPage[];
        let result: RenderBatchResult;
        const inputs = {
          pages,
          firstIndex: (ranges[batchNo] as BatchRange).start,
          maxSearchText: MAX_SEARCH_TEXT,
          // Zipping: pages come back deflated only (inflated again on demand), halving memory.
          keepHtml: !opts.outZip,
          ...(opts.outZip ? { deflateLevel: opts.compressionLevel ?? PAGE_DEFLATE_LEVEL } : {}),
        };
        const key = memo?.batchKey(inputs);
        try {
          const reused = key ? memo!.load(key, pages.length) : undefined;
          if (reused) result = reused;
          else {
            result = await pool.run({ contextPath: contextFile.path, ...inputs, ...(memo ? { recordReads: true } : {}) }, signal ? { signal } : {});
            if (key) memo!.save(key, result, pages.length);
          }
        } catch (err) {
          if (signal?.aborted) throw signal.reason;
          // A crashed worker loses only its batch: report each of its pages.
          const message = `render worker failed: ${err instanceof Error ? err.message : String(err)}`;
          result = { buffer: new ArrayBuffer(0), pages: [], search: packPartialIndex(emptyPartialIndex()), warnings: [], failures: pages.map((p) => ({ path: p.slug, file: p.file, message })), cpu: {} };
        }
        accept(batchNo, pages, result);
        dispatcher.advanced();
      },
    });
    await dispatcher.runAll();
    for (const [step, ms] of Object.entries(workerCpu)) workerTimings[`worker.${step}`] = Math.round(ms);
    lap('render');
    signal?.throwIfAborted();
    failures.sort(byLocation);
    if (failures.length > 0 && !opts.keepGoing) throw new ExportError(failures);
    const failed = new Set(failures.flatMap((f) => (f.path === undefined ? [] : [f.path])));

    // Released pages are read back from the file from here on (the 404 copy, outDir, `files`).
    await zip?.drain();
    progress({ stage: 'index', pagesDone, pagesPlanned });
    for (const [file, bytes] of index.finish()) site.add(file, bytes);
    lap('index');

    progress({ stage: 'write', pagesDone, pagesPlanned });
    const encoder = new TextEncoder();
    for (const a of theme) site.add(a.bundlePath, a.bytes);
    for (const [file, bytes] of sidebars.files) site.add(file, bytes);
    if (plan.tailwind && tailwindCss) {
      const css = await tailwindCss;
      workerTimings['worker.tailwind'] = Math.round(css.ms);
      if (css.warning) warnings.push(css.warning);
      site.add(plan.tailwind.bundlePath, encoder.encode(css.css));
    }
    if (islandFiles.size > 0) {
      const runtime = browserRuntime();
      site.add(runtime.bundlePath, runtime.bytes);
      // Sorted: the bundle is the same whichever worker compiled a module first.
      for (const file of [...islandFiles.keys()].sort()) site.add(file, encoder.encode(islandFiles.get(file)));
    }
    const specs = requirements ? specAccessOf(plan, requirements) : undefined;
    const copies = specs ? specCopies(plan.repoRoot, plan.assets, specs) : undefined;
    for (const [file, bundlePath] of Object.entries(plan.assets)) {
      // Reader access on: a spec behind a page, and each file it refers to, is downloadable as its public view.
      const copy = copies?.get(file);
      if (copy) {
        if (copy.requirement && !specs!.requirements.has(bundlePath)) specs!.requirements.set(bundlePath, copy.requirement);
        if (copy.text !== undefined) {
          site.add(bundlePath, encoder.encode(copy.text));
          continue;
        }
        // Not copyable as JSON (a YAML alias cycle): written as it is, and never public; a requirement
        // its restricted pages already gave it is kept (a signed-in one is no narrower).
        if (!specs!.requirements.has(bundlePath)) specs!.requirements.set(bundlePath, 'signed-in');
      }
      const digest = plan.assetDigests?.[file];
      const rewritten = plan.rewrittenAssets?.[file];
      if (rewritten) site.add(bundlePath, rewritten);
      // The checked real path: the pack stage reads it later, and no link is left in it to follow.
      else if (digest) site.addFromDisk(bundlePath, { source: resolveRepoFile(plan.repoRoot, file), ...digest });
      else site.add(bundlePath, new Uint8Array(readRepoFile(plan.repoRoot, file, Number.MAX_SAFE_INTEGER)));
    }
    // llms.txt lists one division (language, version): its specs and external links too.
    const retrievalSettings = ctx.retrieval;
    const listedLinks = llmsLinks(plan, (id) => inListedDivision(ctx, retrievalSettings, id));
    const specAccess = specs?.requirements;
    const links = specAccess
      ? {
          ...listedLinks,
          openapi: listedLinks.openapi.map((l) => {
            const req = specAccess.get(l.path.replace(/^\//, ''));
            return req && req !== 'public' ? { ...l, requirement: req } : l;
          }),
        }
      : listedLinks;
    const spooled = await retrieval.finish(site, { ...(plan.config.description ? { description: plan.config.description } : {}), origin, links });
    const rendered = failed.size === 0 ? plan.pages : plan.pages.filter((p) => !failed.has(p.slug));
    site.add('sitemap.xml', encoder.encode(buildSitemap(rendered, opts.domain, plan.config.seo?.indexing, requirements)));
    site.add('robots.txt', encoder.encode(buildRobots(opts.domain)));
    for (const [file, body] of Object.entries(APPLIANCE_STAND_INS)) site.add(file, encoder.encode(body));
    // Redirect pages come after every other file, so one that would collide with a file (a page's
    // Markdown copy, sitemap.xml) is seen and skipped rather than breaking the bundle.
    const redirectRules = writeRedirectPages(site, plan, configFile, (to) => encoder.encode(renderRedirectPage(to, ctx)), warnings);
    if (redirectRules.length > 0) site.add(NGINX_REDIRECTS_PATH, encoder.encode(nginxRedirects(redirectRules)));
    // A site without index.mdx would answer its root with a 404; Mintlify sends the visitor to the
    // first page of the navigation instead, and so does this redirect page.
    const home = plan.pages.find((p) => !p.hidden) ?? plan.pages[0];
    if (!site.has('index.html') && home) site.add('index.html', encoder.encode(renderRedirectPage(pageHref(home.slug), ctx)));
    // Static hosts look for 404.html at the root; a page of the site named 404 is that page.
    const own404 = pageFilePath('404');
    if (!site.has('404.html')) site.add('404.html', site.has(own404) ? site.bytes(own404) : encoder.encode(renderNotFoundPage(ctx)));
    const manifest = buildManifest(site, {
      jobId,
      projectId: opts.projectId ?? 'local',
      domain: opts.domain ?? 'localhost',
      version: opts.version ?? gitCommit(plan.repoRoot) ?? jobId,
      createdAt,
      pageCount: pagesPlanned - failed.size,
      warnings,
      ...(opts.keepGoing ? { failures } : {}),
      redirects: manifestRedirects(redirectRules),
      ...(plan.config.readerAnalytics ? { readerAnalytics: plan.config.readerAnalytics } : {}),
      ...(requirements ? { access: buildBundleAccess({ site, pages: rendered, requirements, assetUsers, shards: [...shards.values()], searchRoot: SEARCH_ROOT, markedPages, ...(specAccess ? { fixed: specAccess } : {}) }) } : {}),
    });
    site.add(MANIFEST_PATH, encoder.encode(`${JSON.stringify(manifest, null, 2)}\n`));
    if (opts.outDir) {
      await writeSiteToDir(site, opts.outDir, dirWriter);
      for (const file of spooled) site.release(file, { source: path.join(path.resolve(opts.outDir), file) });
    }
    lap('write');

    let sizeBytes: number | undefined;
    if (zip) {
      progress({ stage: 'pack', pagesDone, pagesPlanned });
      const packing = zip;
      await packing.addAll(site, site.sortedPaths().filter((p) => !packing.has(p)), signal);
      signal?.throwIfAborted();
      sizeBytes = (await packing.finish()).sizeBytes;
      for (const file of spooled) {
        const at = packing.locate(file);
        if (at) site.release(file, at);
      }
      lap('pack');
    }
    // Whatever still lives in the stage's directory (an export to memory) is read in before it goes.
    for (const file of spooled) if (!opts.outDir && !zip) site.keepInMemory(file);
    if (memo && failures.length === 0) memo.prune();
    progress({ stage: 'done', pagesDone, pagesPlanned });
    return {
      manifest,
      pageCount: pagesPlanned - failed.size,
      warnings,
      failures,
      ...(opts.outZip ? { zipPath: path.resolve(opts.outZip) } : {}),
      ...(sizeBytes !== undefined ? { sizeBytes } : {}),
      files: site.view(),
      timings: { ...timings, ...workerTimings },
      ...(memo ? { memo: memo.stats } : {}),
    };
  } catch (err) {
    retrieval.abort();
    dirWriter?.abort();
    await zip?.abort();
    throw err;
  } finally {
    contextFile.remove();
    if (!opts.pool) await pool.close();
  }
}
