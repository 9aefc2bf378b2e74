import path from 'node:path';
import { MAX_SEARCH_TEXT, searchScopes } from '../index-stage/search-index.js';
import { browserRuntime } from '../islands/runtime.js';
import { loadThemeAssets, sharedSidebars } from '../layout/index.js';
import { loadSite } from '../load/index.js';
import { pageFilePath } from '../page-urls.js';
import { renderContext } from '../pipeline.js';
import { planSite } from '../plan/index.js';
import { writeContextFile } from '../pool/context-file.js';
import type { RenderPool } from '../pool/render-pool.js';
import { readRepoFile } from '../repo-files.js';
import { divisionOf } from '../retrieval/page.js';
import { SEARCH_BASE_URL } from '../search-options.js';
import { DEFAULT_SITE_CSP } from '../csp.js';
import { startTailwind, TAILWIND_ASSET } from '../tailwind/index.js';
import type { PlannedPage, RenderFailure, SitePlan } from '../types.js';
import { treeFingerprint } from './fingerprint.js';
import { rebaseCss } from './rebase.js';

export interface PreviewSessionOptions {
  pool: RenderPool;
  /** The site's policy as the appliance sends it (each page carries it as a meta, as exported). */
  contentSecurityPolicy?: string;
  componentScripts?: boolean;
  /** The docs root's fingerprint, taken before this load (default: taken here). */
  fingerprint?: string;
}

export interface PageRender {
  /** The page's full HTML document, root-absolute links as exported (renderer/preview/rebase.ts moves them). */
  html?: string;
  failures: RenderFailure[];
  page: PlannedPage;
}



/**
 * One docs root loaded and planned once, as exportSite's load → plan → context stages do, and kept
 * warm: each preview then renders one page through the render pool (the same worker code, page
 * template, theme, sidebar and component compiler an export runs), with the editor's unsaved text
 * in place of the page's file. The site-wide files (theme CSS/JS, Tailwind, shared sidebars,
 * component modules, repository assets) are computed once and served by `asset()`.
 *
 * A session is immutable: when the docs root changes (`fingerprint` differs) the owner opens a
 * new one. Snippets are read by the worker on every render, but docs.json, page titles in the
 * navigation and the Tailwind class set come from the plan, so any change replans.
 */
export class PreviewSession {
  readonly fingerprint: string;
  readonly plan: SitePlan;
  private readonly pool: RenderPool;
  private readonly context: { path: string; remove(): void };
  private readonly files = new Map<string, () => Buffer | Promise<Buffer>>();
  private readonly bySource = new Map<string, { page: PlannedPage; index: number }>();
  private readonly bySlug = new Map<string, PlannedPage>();
  private closed = false;
  /** Renders under way: the context file they read stays until the last one is back. */
  private inflight = 0;

  /** Load and plan `docsRoot` (throws the renderer's RenderError when docs.json itself is broken). */
  constructor(docsRoot: string, opts: PreviewSessionOptions) {
    this.pool = opts.pool;
    // Taken before loading: a save during the load shows as a change on the next render.
    this.fingerprint = opts.fingerprint ?? treeFingerprint(docsRoot);
    const loaded = loadSite(docsRoot);
    const plan = planSite(loaded);
    this.plan = plan;
    plan.pages.forEach((page, index) => {
      if (!page.generated && !this.bySource.has(page.file)) this.bySource.set(page.file, { page, index });
      this.bySlug.set(page.slug, page);
    });

    // The context exportSite builds (renderer/pipeline.ts), reader access off: the writer sees every page.
    const theme = loadThemeAssets();
    const themeUrls: Record<string, string> = { 'search-index': SEARCH_BASE_URL };
    for (const a of theme) {
      themeUrls[a.name] = `/${a.bundlePath}`;
      const bytes = Buffer.from(a.bytes);
      this.files.set(a.bundlePath, () => bytes);
    }
    if (plan.tailwind) {
      themeUrls[TAILWIND_ASSET] = `/${plan.tailwind.bundlePath}`;
      // Compiled on a worker beside the first render; the stylesheet request waits for it.
      const css = startTailwind(plan.tailwind, opts.pool, undefined, loaded.configFile).then((r) => Buffer.from(r.css, 'utf8'));
      css.catch(() => undefined);
      this.files.set(plan.tailwind.bundlePath, () => css);
    }
    const ctx = renderContext(plan, themeUrls, opts.componentScripts !== false, opts.contentSecurityPolicy ?? DEFAULT_SITE_CSP);
    const scopes = searchScopes(plan.sections);
    ctx.searchScopes = Object.fromEntries([...scopes.bySection].map(([id, scope]) => [id, scope.key]));
    const sidebars = sharedSidebars(ctx);
    if (sidebars.files.length > 0) ctx.sidebarFiles = sidebars.urls;
    for (const [file, bytes] of sidebars.files) this.files.set(file, () => Buffer.from(bytes));
    const firstPage = plan.pages.find((p) => !p.hidden);
    ctx.retrieval = { origin: '', indexing: plan.config.seo?.indexing ?? 'navigable', ...divisionOf(ctx, firstPage?.sectionId) };
    const runtime = browserRuntime();
    this.files.set(runtime.bundlePath, () => Buffer.from(runtime.bytes));
    for (const [file, bundlePath] of Object.entries(plan.assets)) {
      const rewritten = plan.rewrittenAssets?.[file];
      this.files.set(bundlePath, () => (rewritten ? Buffer.from(rewritten) : readRepoFile(plan.repoRoot, file, Number.MAX_SAFE_INTEGER)));
    }
    this.context = writeContextFile(ctx);
  }

  /** The planned page of a source file; a file outside the plan (a snippet, a new page) gets a hidden page of its own. */
  pageOf(relPath: string): { page: PlannedPage; index: number } {
    const planned = this.bySource.get(relPath);
    if (planned) return planned;
    const stem = relPath.replace(/\.mdx?$/i, '');
    const slug = stem === 'index' ? 'index' : stem.replace(/\/index$/, '');
    return { page: { slug, file: relPath, outputPath: pageFilePath(slug), breadcrumbs: [], hidden: true }, index: this.plan.pages.length };
  }

  /** A page of the plan by slug (a link followed inside the preview). */
  pageBySlug(slug: string): PlannedPage | undefined {
    return this.bySlug.get(slug);
  }

  /** Render the page of `relPath` with `content` (undefined: the file on disk) in a render worker. */
  async render(relPath: string, content: string | undefined): Promise<PageRender> {
    const { page, index } = this.pageOf(relPath);
    this.inflight++;
    const result = await this.pool.run({
      contextPath: this.context.path,
      pages: [page],
      firstIndex: index,
      maxSearchText: MAX_SEARCH_TEXT,
      keepHtml: true,
      ...(content === undefined ? {} : { sources: { [relPath]: content } }),
    }).finally(() => {
      this.inflight--;
      if (this.closed && this.inflight === 0) this.context.remove();
    });
    // Component modules the page loads: served like the export writes them.
    for (const [file, code] of Object.entries(result.islandFiles ?? {})) {
      const bytes = Buffer.from(code, 'utf8');
      this.files.set(file, () => bytes);
    }
    const ref = result.pages[0];
    const html = ref?.html ? Buffer.from(result.buffer, ref.html.offset, ref.html.length).toString('utf8') : undefined;
    return { ...(html === undefined ? {} : { html }), failures: result.failures, page };
  }

  /**
   * A site-wide file's bytes by its bundle path (`_static/site.3f2a9c1b.css`), stylesheets rebased
   * to be relative; the caller serves them with the site's content types.
   */
  async asset(assetPath: string): Promise<Buffer | undefined> {
    const read = this.files.get(assetPath);
    if (!read) return undefined;
    const body = await read();
    return path.extname(assetPath).toLowerCase() === '.css' ? Buffer.from(rebaseCss(body.toString('utf8'), assetPath), 'utf8') : body;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.inflight === 0) this.context.remove();
  }
}
