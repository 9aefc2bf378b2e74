/**
 * A bundle with `access` (issue 40) made into one that carries no access rules, for a static
 * export handed to a web server that cannot enforce them: only the files `view` may see, marked
 * files filtered for that view (EVERYTHING: every file, markers stripped), and a manifest without
 * `access`, listing the files that remain with their new sizes and hashes. Pure: bytes in, bytes out.
 */
import crypto from 'node:crypto';
import { canSee, type BundleAccess, type ReaderView, type Requirement } from './contract.js';
import { filterMarked } from './filter.js';

interface ManifestFileEntry {
  path: string;
  size: number;
  sha256: string;
  [k: string]: unknown;
}

export interface StrippedBundle {
  files: Map<string, Uint8Array>;
  /** Bundle paths left out (not visible to the view). */
  dropped: string[];
}

const sha256 = (b: Uint8Array) => crypto.createHash('sha256').update(b).digest('hex');

/** The access map of a parsed manifest, or undefined when the bundle was rendered without reader access. */
export function accessOf(manifest: unknown): BundleAccess | undefined {
  const a = (manifest as { access?: unknown } | null)?.access;
  return a && typeof a === 'object' ? (a as BundleAccess) : undefined;
}

/**
 * `files` holds every entry of the bundle, `manifest.json` included. A bundle without `access` is
 * returned as it is.
 */
export function stripBundle(files: ReadonlyMap<string, Uint8Array>, view: ReaderView): StrippedBundle {
  const raw = files.get('manifest.json');
  if (!raw) throw new Error('the bundle has no manifest.json');
  const manifest = JSON.parse(Buffer.from(raw).toString('utf8')) as Record<string, unknown>;
  const access = accessOf(manifest);
  if (!access) return { files: new Map(files), dropped: [] };
  const marked = new Set(access.marked ?? []);
  // Anything unreadable in the map hides its file: the export must fail closed too.
  const requirement = (rel: string): Requirement => {
    const r = access.files?.[rel];
    return r ?? (access.defaultRequirement === 'public' ? 'public' : 'signed-in');
  };
  const out = new Map<string, Uint8Array>();
  const dropped: string[] = [];
  for (const [rel, bytes] of files) {
    if (rel === 'manifest.json') continue;
    let visible = false;
    try {
      visible = canSee(requirement(rel), view);
    } catch {
      visible = false;
    }
    if (!visible) {
      dropped.push(rel);
      continue;
    }
    if (rel.startsWith('_retrieval/') && !('all' in view)) {
      // The section index holds every page's text: only the sections of pages the view may see.
      const kept = rel.endsWith('.ndjson') ? sectionIndexFor(Buffer.from(bytes).toString('utf8'), (page) => pageVisible(page, requirement, view)) : undefined;
      if (kept === undefined) dropped.push(rel);
      else out.set(rel, Buffer.from(kept));
      continue;
    }
    out.set(rel, marked.has(rel) ? Buffer.from(filterMarked(Buffer.from(bytes).toString('utf8'), view)) : bytes);
  }
  const listed = Array.isArray(manifest.files) ? (manifest.files as ManifestFileEntry[]) : [];
  const rewritten: ManifestFileEntry[] = [];
  for (const f of listed) {
    const body = out.get(f.path);
    if (!body) continue;
    rewritten.push({ ...f, size: body.length, sha256: sha256(body) });
  }
  const { access: _access, ...rest } = manifest;
  const droppedPages = dropped.filter((p) => p.endsWith('.html')).length;
  const next = {
    ...rest,
    ...(typeof manifest.pageCount === 'number' ? { pageCount: Math.max(0, manifest.pageCount - droppedPages) } : {}),
    files: rewritten,
  };
  out.set('manifest.json', Buffer.from(JSON.stringify(next, null, 2)));
  return { files: out, dropped };
}

/** A page (`guides/intro`, `index`) is visible when its `.md` and HTML files are. */
function pageVisible(page: string, requirement: (rel: string) => Requirement, view: ReaderView): boolean {
  const html = page === 'index' ? ['index.html'] : [`${page}.html`, `${page}/index.html`];
  return [`${page}.md`, ...html].every((rel) => canSee(requirement(rel), view));
}

/** An NDJSON section index (header line, then one section per line) with only the sections of visible pages. */
function sectionIndexFor(text: string, keep: (page: string) => boolean): string {
  const lines = text.split('\n');
  const out = [lines[0] ?? ''];
  for (const line of lines.slice(1)) {
    if (!line) continue;
    let page: unknown;
    try {
      page = (JSON.parse(line) as { path?: unknown }).path;
    } catch {
      continue;
    }
    if (typeof page === 'string' && keep(page)) out.push(line);
  }
  return `${out.join('\n')}\n`;
}
