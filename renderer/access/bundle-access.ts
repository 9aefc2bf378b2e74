import { createHash } from 'node:crypto';
import type { SearchScope } from '../index-stage/scopes.js';
import type { PlannedPage } from '../types.js';
import type { SiteFiles } from '../write/site-files.js';
import { unionOf, type BundleAccess, type Requirement } from './contract.js';

const OPEN = new TextEncoder().encode('<!--da:');
/** Text files a marker can be in (pages, Markdown, llms*.txt, sitemap.xml, JSON listings, shared sidebars). */
const TEXT_FILE = /\.(html|md|txt|xml|json)$/;

/** ctx.pageAccess: only the pages that are not public (the workers' default). */
export function restrictedPages(reqs: ReadonlyMap<string, Requirement>): Record<string, Requirement> {
  const out: Record<string, Requirement> = {};
  for (const [slug, req] of reqs) if (req !== 'public') out[slug] = req;
  return out;
}

export function defaultRequirementOf(reqs: ReadonlyMap<string, Requirement>): 'public' | 'signed-in' {
  for (const r of reqs.values()) if (r === 'public') return 'public';
  return 'signed-in';
}

/** The search shard of `scope` for pages needing `req` (the scope itself for public pages). */
export function shardScope(scope: SearchScope, req: Requirement): SearchScope {
  if (req === 'public') return scope;
  // Group names may hold anything: a restricted shard's directory is named by a digest.
  const suffix = req === 'signed-in' ? 'signed-in' : `g${createHash('sha256').update(req).digest('hex').slice(0, 12)}`;
  return { ...scope, key: `${scope.key}~${suffix}`, scope: scope.key, requirement: req };
}

function contains(bytes: Uint8Array, needle: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(needle) !== -1;
}

/**
 * manifest.json's `access`: every file of a page (its HTML, its Markdown copy), every asset
 * whose referencing pages are all restricted (the union of their requirements), every restricted
 * search shard, when their requirement is not the default; and the text files that carry markers.
 */
export function buildBundleAccess(opts: {
  site: SiteFiles;
  pages: readonly PlannedPage[];
  requirements: ReadonlyMap<string, Requirement>;
  /** Bundle path of an asset → slugs of the pages that reference it. */
  assetUsers: ReadonlyMap<string, ReadonlySet<string>>;
  shards: readonly SearchScope[];
  /** Files whose requirement is set outright (specs with restricted operations: spec-access.ts). */
  fixed?: ReadonlyMap<string, Requirement>;
  searchRoot: string;
  /** Page HTML files the workers found markers in: pages are not read back (from the zip) to find out. */
  markedPages?: ReadonlySet<string>;
}): BundleAccess {
  const { site, requirements } = opts;
  const defaultRequirement = defaultRequirementOf(requirements);
  const files: Record<string, Requirement> = {};
  const set = (file: string, req: Requirement): void => {
    if (req !== defaultRequirement && site.has(file)) files[file] = req;
  };
  const counts = { public: 0, signedIn: 0, groups: 0 };
  for (const page of opts.pages) {
    const req = requirements.get(page.slug) ?? defaultRequirement;
    if (req === 'public') counts.public++;
    else if (req === 'signed-in') counts.signedIn++;
    else counts.groups++;
    set(page.outputPath, req);
    set(`${page.slug}.md`, req);
  }
  for (const [asset, users] of opts.assetUsers) {
    const req = unionOf([...users].map((slug) => requirements.get(slug) ?? defaultRequirement));
    set(asset.replace(/^\//, ''), req);
  }
  for (const [file, req] of opts.fixed ?? []) {
    delete files[file];
    set(file, req);
  }
  const paths = site.sortedPaths();
  const shardReq = new Map<string, Requirement>(opts.shards.flatMap((s): [string, Requirement][] => (s.requirement ? [[`${opts.searchRoot}${s.key}/`, s.requirement]] : [])));
  for (const file of paths) {
    if (!file.startsWith(opts.searchRoot)) continue;
    const req = shardReq.get(file.slice(0, file.indexOf('/', opts.searchRoot.length) + 1));
    if (req) set(file, req);
  }
  // Read back once per text file (pages from the zip when it holds them): only with reader access on.
  // A page's Markdown copy carries no markers of the renderer's (its page is all or nothing).
  const pageHtml = new Set(opts.pages.flatMap((p) => [p.outputPath, `${p.slug}.md`]));
  const marked = paths.filter((file) => {
    if (opts.markedPages && pageHtml.has(file)) return opts.markedPages.has(file);
    return TEXT_FILE.test(file) && contains(site.bytes(file), OPEN);
  });
  const sorted: Record<string, Requirement> = {};
  for (const k of Object.keys(files).sort()) sorted[k] = files[k] as Requirement;
  return { format: 1, files: sorted, defaultRequirement, marked, pages: counts };
}
