import fs from 'node:fs';
import path from 'node:path';
import { errors } from '../errors.js';
import type { Logger } from '../logger.js';
import { createRenderPool, type RenderPool } from '../../renderer/pool/render-pool.js';
import { textOnlyChange, treeFingerprint, treeFingerprintAsync } from '../../renderer/preview/fingerprint.js';
import { rebaseHtml, quietAppliance, QUIET_SCRIPT, QUIET_SCRIPT_PATH } from '../../renderer/preview/rebase.js';
import { PreviewSession, type PageRender } from '../../renderer/preview/session.js';
import { RenderError, type RenderFailure } from '../../renderer/types.js';
import { errorBanner, errorPage, forceAppearance } from './preview-page.js';
import { contentType } from '../site/mime.js';

export interface EditorPreview {
  /** Render one page of the docs root with `content` in place of the file at `relPath`, as the exported site renders it. */
  render(input: PreviewInput): Promise<PreviewResult>;
  /** Serve the preview's assets (CSS, JS, images) under `<editor>/preview-assets/...`. */
  asset(projectId: string, docsRoot: string, assetPath: string): Promise<{ body: Buffer; type: string } | undefined>;
  close(): Promise<void>;
}

export interface PreviewInput {
  projectId: string;
  docsRoot: string;
  relPath: string;
  content: string;
  /** true: dark, false: light, absent: as the site decides (its toggle, the reader's OS). */
  dark?: boolean;
  /** Where `asset()` is served for this request (ends with `/`); default: the options' assetBase. */
  assetBase?: string;
}

export interface PreviewError {
  file: string;
  line: number;
  column?: number;
  message: string;
}

export interface PreviewResult {
  html: string;
  errors: PreviewError[];
  ms: number;
}

export interface EditorPreviewOptions {
  /** Render pool to share; default: one of its own with PREVIEW_THREADS workers, closed by close(). */
  pool?: RenderPool;
  /** The URL prefix `asset()` answers under for a project (ends with `/`). Default `preview-assets/`. */
  assetBase?: (projectId: string) => string;
  /** The site's Content-Security-Policy (each page carries it as a meta, as exported). */
  contentSecurityPolicy?: string;
  log?: Logger;
}

/**
 * One worker of its own by default: an export running on the appliance's pool (every core, long
 * batches) would otherwise queue the writer's keystrokes behind it, and one page needs one thread.
 */
export const PREVIEW_THREADS = 1;

/** Sessions kept warm (one per project and docs root, least recently used out first). */
const MAX_SESSIONS = 8;
/** Last good renders kept, per session key and page. */
const MAX_LAST_GOOD = 200;

const PAGE_RE = /\.mdx?$/i;

interface Entry {
  session?: PreviewSession;
  /** The docs root as it was when its config last failed to load (so it is not reloaded on every keystroke). */
  failed?: { fingerprint: string; error: PreviewError };
  opening?: Promise<void>;
}

/**
 * The path the editor names, confined to the docs root by the renderer's rules: relative, `/`
 * separated, no `..`, and (when it exists) a real path inside the root after following links.
 */
export function confinedRelPath(docsRoot: string, relPath: string): string {
  const rel = relPath;
  if (!rel || rel.includes('\\') || rel.includes('\0') || path.isAbsolute(rel) || rel.split('/').some((s) => s === '..' || s === '.' || s === '')) {
    throw errors.badRequest(`Invalid body: path: "${relPath}" is not a path inside the docs root`);
  }
  const root = fs.realpathSync.native(docsRoot);
  let probe = path.join(root, rel);
  // A new page has no file yet: its nearest existing ancestor must be inside.
  while (!fs.existsSync(probe) && probe !== root) probe = path.dirname(probe);
  const real = fs.realpathSync.native(probe);
  if (real !== root && !real.startsWith(root + path.sep)) throw errors.badRequest(`Invalid body: path: "${relPath}" is outside the docs root`);
  return rel;
}

function asPreviewError(f: RenderFailure | RenderError): PreviewError {
  return { file: f.file, line: f.line ?? 1, ...(f.column ? { column: f.column } : {}), message: f.message };
}

export function createEditorPreview(options: EditorPreviewOptions = {}): EditorPreview {
  let ownPool: RenderPool | undefined;
  const pool = (): RenderPool => options.pool ?? (ownPool ??= createRenderPool({ threads: PREVIEW_THREADS }));
  const entries = new Map<string, Entry>();
  const lastGood = new Map<string, string>();

  const keyOf = (projectId: string, docsRoot: string): string => `${projectId}\0${path.resolve(docsRoot)}`;

  const remember = (key: string, html: string): void => {
    lastGood.delete(key);
    lastGood.set(key, html);
    if (lastGood.size > MAX_LAST_GOOD) lastGood.delete(lastGood.keys().next().value as string);
  };

  /** The entry of a docs root (least recently used out first), once no session is being opened for it. */
  async function entryFor(projectId: string, docsRoot: string): Promise<Entry> {
    const key = keyOf(projectId, docsRoot);
    let entry = entries.get(key);
    if (!entry) {
      entry = {};
      if (entries.size >= MAX_SESSIONS) {
        const [oldKey, old] = entries.entries().next().value as [string, Entry];
        old.session?.close();
        entries.delete(oldKey);
      }
    } else entries.delete(key);
    entries.set(key, entry);
    // A warm session goes on answering while a replan runs; only a first load is waited for.
    while (entry.opening && !entry.session) await entry.opening;
    return entry;
  }

  /** Whether the entry already reflects the docs root as `fingerprint` describes it. */
  const upToDate = (entry: Entry, fingerprint: string): boolean => entry.session?.fingerprint === fingerprint || entry.failed?.fingerprint === fingerprint;

  /** Load and plan the docs root again (any file under it changed). */
  async function refresh(entry: Entry, projectId: string, docsRoot: string, fingerprint: string): Promise<void> {
    while (entry.opening) await entry.opening;
    if (upToDate(entry, fingerprint)) return;
    entry.opening = (async () => {
      const t0 = performance.now();
      try {
        const next = new PreviewSession(docsRoot, { pool: pool(), fingerprint, ...(options.contentSecurityPolicy ? { contentSecurityPolicy: options.contentSecurityPolicy } : {}) });
        entry.session?.close();
        entry.session = next;
        delete entry.failed;
        options.log?.info({ projectId, pages: next.plan.pages.length, ms: Math.round(performance.now() - t0) }, 'editor preview: site planned');
      } catch (err) {
        if (!(err instanceof RenderError)) throw err;
        // A broken docs.json: the previous plan (if any) goes on rendering, the error beside it.
        entry.failed = { fingerprint, error: asPreviewError(err) };
      }
    })().finally(() => {
      delete entry.opening;
    });
    await entry.opening;
  }

  return {
    async render(input) {
      const t0 = performance.now();
      const rel = confinedRelPath(input.docsRoot, input.relPath);
      if (!PAGE_RE.test(rel)) throw errors.badRequest(`Invalid body: path: only pages and snippets (.mdx, .md) have a preview`);
      const base = input.assetBase ?? options.assetBase?.(input.projectId) ?? 'preview-assets/';
      const finish = (html: string, errs: PreviewError[]): PreviewResult => {
        let out = forceAppearance(quietAppliance(rebaseHtml(html, base), base), input.dark);
        if (errs.length > 0) out = errorBanner(out, errs);
        return { html: out, errors: errs, ms: Math.round((performance.now() - t0) * 10) / 10 };
      };
      const entry = await entryFor(input.projectId, input.docsRoot);
      // Warm: the docs root is checked for changes while the worker renders, and only a change
      // (a save, a snippet or docs.json edit) costs a replan and a second render.
      let fingerprint: string;
      let rendered: PageRender | undefined;
      const warm = entry.session;
      if (warm) {
        [fingerprint, rendered] = await Promise.all([treeFingerprintAsync(input.docsRoot), warm.render(rel, input.content)]);
        if (!upToDate(entry, fingerprint)) {
          if (textOnlyChange(warm.fingerprint, fingerprint)) {
            // Saved pages or snippets only: this render already read the snippets from disk, and
            // the plan (navigation titles, Tailwind classes) is redone after the answer is sent.
            const next = fingerprint;
            setImmediate(() => void refresh(entry, input.projectId, input.docsRoot, next).catch((err: unknown) => options.log?.warn({ err }, 'editor preview: replan failed')));
            fingerprint = warm.fingerprint;
          } else rendered = undefined;
        }
      } else fingerprint = treeFingerprint(input.docsRoot);
      await refresh(entry, input.projectId, input.docsRoot, fingerprint);
      const session = entry.session;
      const pageKey = `${keyOf(input.projectId, input.docsRoot)}\0${rel}`;
      const errs: PreviewError[] = entry.failed?.fingerprint === fingerprint ? [entry.failed.error] : [];
      if (!session) return finish(lastGood.get(pageKey) ?? errorPage(errs), errs);
      if (!rendered || (warm !== session)) rendered = await session.render(rel, input.content);
      errs.push(...rendered.failures.map(asPreviewError));
      if (rendered.html !== undefined && rendered.failures.length === 0) {
        remember(pageKey, rendered.html);
        return finish(rendered.html, errs);
      }
      // Never a blank preview: the last good render, else the page as saved, else an error page.
      let fallback = lastGood.get(pageKey);
      if (fallback === undefined) {
        const saved = fs.existsSync(path.join(input.docsRoot, rel)) ? await session.render(rel, undefined) : undefined;
        if (saved?.html !== undefined && saved.failures.length === 0) remember(pageKey, (fallback = saved.html));
      }
      return finish(fallback ?? errorPage(errs), errs);
    },

    async asset(projectId, docsRoot, assetPath) {
      const rel = decodeURIComponent(assetPath).replace(/^\/+/, '');
      if (rel.includes('\\') || rel.includes('\0') || rel.split('/').some((s) => s === '..' || s === '.')) return undefined;
      if (rel === QUIET_SCRIPT_PATH) return { body: Buffer.from(QUIET_SCRIPT), type: 'text/javascript; charset=utf-8' };
      const entry = await entryFor(projectId, docsRoot);
      if (!entry.session) await refresh(entry, projectId, docsRoot, treeFingerprint(docsRoot));
      const session = entry.session;
      if (!session) return undefined;
      const file = await session.asset(rel);
      // Typed as the site listener types the same file (app/site/mime.ts).
      if (file) return { body: file, type: contentType(rel) };
      // A link followed inside the preview: that page, as saved, its links relative to where it is served.
      const slug = rel === '' || rel === 'index.html' ? 'index' : rel.replace(/\/index\.html$|\/$/, '');
      const page = session.pageBySlug(slug);
      if (!page || page.generated) return undefined;
      const rendered = await session.render(page.file, undefined);
      if (rendered.html === undefined) return undefined;
      const depth = rel === '' || rel === 'index.html' ? 0 : slug.split('/').length;
      const up = depth === 0 ? './' : '../'.repeat(depth);
      return { body: Buffer.from(quietAppliance(rebaseHtml(rendered.html, up), up), 'utf8'), type: 'text/html; charset=utf-8' };
    },

    async close() {
      for (const entry of entries.values()) {
        while (entry.opening) await entry.opening.catch(() => undefined);
        entry.session?.close();
      }
      entries.clear();
      lastGood.clear();
      await ownPool?.close();
      ownPool = undefined;
    },
  };
}
