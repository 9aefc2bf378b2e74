import { createHash } from 'node:crypto';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { renderDocument } from '../layout/index.js';
import { renderPageContent, type PageInput } from '../page/index.js';
import { readRepoText } from '../repo-files.js';
import { defaultSection, languageOf } from '../i18n/language.js';
import { pageHref } from '../page-urls.js';
import { addToPartialIndex, emptyPartialIndex, packPartialIndex } from '../index-stage/partial-index.js';
import { RenderError, type BuildWarning, type PageContent, type PlannedPage, type RenderContext, type RenderFailure, type SearchDocument } from '../types.js';
import { retrievalText } from '../retrieval/page.js';
import type { LlmsEntry, RetrievalSettings } from '../retrieval/types.js';
import { referencedAssets } from '../access/page-assets.js';
import type { PieceRef, RenderBatchResult, RenderBatchTask, RenderedPageRef } from './batch.js';
import { startReadLog, takeReadLog } from '../memo/read-log.js';

/** An export that did not say (tests rendering a batch on their own): list every visible page. */
const DEFAULT_RETRIEVAL: RetrievalSettings = { origin: '', indexing: 'navigable' };

interface CachedContext {
  ctx: RenderContext;
  sectionTitles: Map<string, string>;
}
/**
 * Parsed contexts by file path. Two, so that two exports sharing the pool (the job queue may run
 * them side by side) do not re-parse on every switch; an export's file is unique to it, so a
 * stale entry is never reused, only evicted.
 */
const cache = new Map<string, CachedContext>();
const CACHED_CONTEXTS = 2;

/**
 * A finished export removes its context file: its entry (the navigation of every page, and the
 * caches keyed by it: chrome, sidebars, spec YAML) is dropped when the next export starts, not
 * kept until two more have run. Measured: a 25,000-page export after two 10,000-page ones peaked
 * 115 MiB higher than alone, with both stale contexts still held by each worker.
 */
function dropFinished(): void {
  for (const path of [...cache.keys()]) if (!fs.existsSync(path)) cache.delete(path);
}

/** The context files this worker holds parsed, oldest first (for tests and diagnostics). */
export function cachedContextPaths(): string[] {
  return [...cache.keys()];
}

/** The context is the same for every batch of an export: parse it once per worker, not per task. */
function contextFor(contextPath: string): CachedContext {
  let entry = cache.get(contextPath);
  if (!entry) {
    dropFinished();
    const ctx = JSON.parse(fs.readFileSync(contextPath, 'utf8')) as RenderContext;
    const sectionTitles = new Map<string, string>();
    for (const s of ctx.sections) sectionTitles.set(s.id, s.trail.map((t) => t.title).join(' › '));
    entry = { ctx, sectionTitles };
    if (cache.size >= CACHED_CONTEXTS) cache.delete(cache.keys().next().value as string);
    cache.set(contextPath, entry);
  }
  return entry;
}

export function toFailure(err: unknown, file: string, path?: string): RenderFailure {
  if (err instanceof RenderError) {
    const f: RenderFailure = { ...(path === undefined ? {} : { path }), file: err.file, message: err.message };
    if (err.line !== undefined) f.line = err.line;
    if (err.column !== undefined) f.column = err.column;
    return f;
  }
  const message = err instanceof Error ? err.message : String(err);
  return { ...(path === undefined ? {} : { path }), file, message: message || 'render failed' };
}

/** A page's source: its file, or for a page generated from a spec its x-mint content and metadata. */
/** Section id → its navigation language, once per ctx (the pool reuses one ctx object per worker). */
const sectionLanguages = new WeakMap<RenderContext, Map<string, string>>();

function languageOfPage(page: PlannedPage, ctx: RenderContext): string {
  let langs = sectionLanguages.get(ctx);
  if (!langs) sectionLanguages.set(ctx, (langs = new Map((ctx.sections ?? []).map((s) => [s.id, languageOf(s)]))));
  const id = page.sectionId ?? ctx.pageIndex[page.slug]?.sectionId;
  // A page in no section is shown in the default one (layout/chrome.ts): its words are that section's language.
  return (id !== undefined ? langs.get(id) : undefined) ?? languageOf(defaultSection(ctx.sections ?? []));
}

function pageInput(page: PlannedPage, ctx: RenderContext, sources?: Record<string, string>): PageInput {
  const api = page.api;
  const lang = languageOfPage(page, ctx);
  if (page.generated && api?.kind === 'operation') {
    return { file: page.file, source: api.operation.content ?? '', ctx, api, lang, frontmatter: { ...(api.operation.metadata ?? { title: api.operation.title }) } };
  }
  if (page.generated && api?.kind === 'channel') {
    return { file: page.file, source: '', ctx, api, lang, frontmatter: { title: api.channel.title } };
  }
  const source = sources?.[page.file] ?? readRepoText(ctx.repoRoot, page.file);
  return api ? { file: page.file, source, ctx, api, lang } : { file: page.file, source, ctx, lang };
}

/**
 * The worker's buffer for a page's bytes while they are hashed and deflated: a zip export keeps
 * only the deflated copy, so the page's UTF-8 needs no memory of its own (two allocations of its
 * size a page, 38 KB and 4 KB on the bench's pages, for the collector to sweep). Grows to the
 * largest page seen up to SCRATCH_MAX_BYTES; a bigger page gets a buffer of its own, so one huge
 * page does not leave the worker holding three times its size. The returned view is valid until
 * the next call.
 */
const SCRATCH_MAX_BYTES = 8 * 1024 * 1024;
let scratch = Buffer.allocUnsafe(256 * 1024);

function encodeToScratch(text: string): Buffer {
  // UTF-8 takes at most 3 bytes per UTF-16 unit.
  const worst = text.length * 3;
  if (worst > SCRATCH_MAX_BYTES) return Buffer.from(text, 'utf8');
  if (worst > scratch.length) scratch = Buffer.allocUnsafe(Math.min(SCRATCH_MAX_BYTES, Math.max(worst, scratch.length * 2)));
  return scratch.subarray(0, scratch.write(text, 0, 'utf8'));
}

/** Cut at the last space before `max` (unless that loses more than a fifth), never mid-word when avoidable. */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const space = text.lastIndexOf(' ', max);
  return text.slice(0, space > max * 0.8 ? space : max);
}

function searchDocument(page: PlannedPage, content: PageContent, sectionTitle: string | undefined, max: number): SearchDocument {
  const section = page.breadcrumbs.length > 0 ? page.breadcrumbs.join(' › ') : sectionTitle;
  const text = truncate(content.text, max);
  const doc: SearchDocument = {
    url: pageHref(page.slug),
    title: content.title,
    headings: content.toc.map((t) => t.text).join(' \n'),
    text,
  };
  if (section) doc.section = section;
  return doc;
}

/**
 * Render a batch of pages: read, render the content, wrap it in the layout, encode, and (when
 * asked) deflate it for the zip here in the worker, where compression runs in parallel with the
 * other workers instead of on the main thread. A page that fails becomes a RenderFailure and the
 * rest of the batch goes on.
 */
export function renderBatch(task: RenderBatchTask): RenderBatchResult {
  const { ctx, sectionTitles } = contextFor(task.contextPath);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const pages: RenderedPageRef[] = [];
  const markdown: RenderedPageRef[] = [];
  const search = emptyPartialIndex();
  const termSlots = new Map<string, number>();
  const warnings: BuildWarning[] = [];
  const failures: RenderFailure[] = [];
  let islandFiles: Record<string, string> | undefined;
  const retrievalSettings = ctx.retrieval ?? DEFAULT_RETRIEVAL;
  const sectionPieces: PieceRef[] = [];
  const llmsPieces: PieceRef[] = [];
  const listed: LlmsEntry[] = [];

  const cpu: Record<string, number> = { read: 0, page: 0, layout: 0, pack: 0, retrieval: 0, index: 0 };
  let mark = performance.now();
  const lap = (step: string): void => {
    const now = performance.now();
    cpu[step] = (cpu[step] ?? 0) + (now - mark);
    mark = now;
  };
  const append = (bytes: Uint8Array): { offset: number; length: number } => {
    chunks.push(bytes);
    size += bytes.length;
    return { offset: size - bytes.length, length: bytes.length };
  };
  /**
   * One output file into the batch buffer: encoded into the worker's scratch buffer, hashed here,
   * deflated here when the zip wants it; its raw bytes are copied out only when they are kept.
   */
  const output = (slug: string, outputPath: string, text: string): RenderedPageRef => {
    const bytes = encodeToScratch(text);
    const ref: RenderedPageRef = { slug, outputPath, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
    if (task.keepHtml || task.deflateLevel === undefined) ref.html = append(Buffer.from(bytes));
    if (task.deflateLevel !== undefined) {
      const deflated = zlib.deflateRawSync(bytes, { level: task.deflateLevel });
      ref.deflated = { ...append(deflated), crc32: zlib.crc32(bytes) >>> 0 };
    }
    return ref;
  };
  const piece = (text: string): PieceRef | undefined => {
    if (!text) return undefined;
    const raw = Buffer.from(text, 'utf8');
    return { raw: append(raw) };
  };

  // A batch that asked for no log must not add to one a failed batch left running.
  if (task.recordReads) startReadLog();
  else takeReadLog();
  task.pages.forEach((page, i) => {
    try {
      mark = performance.now();
      const input = pageInput(page, ctx, task.sources);
      lap('read');
      const content = renderPageContent(input);
      lap('page');
      const html = renderDocument({ page, content, ctx });
      lap('layout');
      const ref = output(page.slug, page.outputPath, html);
      if (ctx.pageAccess) {
        ref.assets = referencedAssets(ctx, content.html);
        if (html.includes('<!--da:')) ref.marked = true;
      }
      lap('pack');
      pages.push(ref);
      if (content.islands) islandFiles = Object.assign(islandFiles ?? {}, content.islands.files);
      warnings.push(...content.warnings);
      const text = retrievalText(ctx, retrievalSettings, page, input.source, content);
      markdown.push(output(page.slug, `${page.slug}.md`, text.markdown));
      const sections = piece(text.sections);
      if (sections) sectionPieces.push(sections);
      const llmsFull = piece(text.llmsFull);
      if (llmsFull) llmsPieces.push(llmsFull);
      if (text.listed) listed.push(text.listed);
      lap('retrieval');
      if (!page.hidden) {
        const sectionTitle = page.sectionId ? sectionTitles.get(page.sectionId) : undefined;
        addToPartialIndex(search, task.firstIndex + i, searchDocument(page, content, sectionTitle, task.maxSearchText), termSlots);
        lap('index');
      }
    } catch (err) {
      failures.push(toFailure(err, page.file, page.slug));
    }
  });

  const reads = task.recordReads ? takeReadLog() : undefined;
  const buffer = new ArrayBuffer(size);
  const view = new Uint8Array(buffer);
  let offset = 0;
  for (const c of chunks) {
    view.set(c, offset);
    offset += c.length;
  }
  return {
    buffer,
    pages,
    markdown,
    retrieval: { sections: sectionPieces, llmsFull: llmsPieces, listed },
    search: packPartialIndex(search),
    warnings,
    failures,
    cpu,
    ...(islandFiles ? { islandFiles } : {}),
    ...(reads ? { reads } : {}),
  };
}
