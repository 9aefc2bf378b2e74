import type { LoadedSite } from '../load/index.js';
import type { BuildWarning, FontSpec, NavNode, NavSection, PlannedPage, SiteConfig, SitePlan } from '../types.js';
import { ApiPlanner } from '../openapi/plan.js';
import { planAssets } from './assets.js';
import { buildSections } from './build-sections.js';
import { isOutsideBundle, toRepoPath } from '../repo-paths.js';
import { legacyToNavigation } from './legacy-navigation.js';
import { readPageMeta, type PageMeta } from './page-meta.js';
import { readNavigation, type RawEntry, type RawSection } from './read-navigation.js';
import { planRedirects } from './redirects.js';
import { selectPaths } from './select-paths.js';
import { pageFilePath, pageHref } from '../page-urls.js';
import { isListedAgentInstructionPage, isListedNestedSnippetPage, isPageFile, normaliseRef, slugForFile, titleFromSlug } from './slugs.js';
import { classCandidates } from './tailwind-classes.js';
import { planTailwind } from '../tailwind/index.js';
import { navigationIconWarnings } from '../icons/navigation-warnings.js';
import { sectionOfPath } from '../i18n/language.js';

export { UnknownPathsError, selectPaths, pathMatcher } from './select-paths.js';
export { slugForFile, normaliseRef, isPageFile, isSnippetPath } from './slugs.js';
export { readPageMeta } from './page-meta.js';

export interface PlanOptions {
  /** Limit the export to these slugs / prefixes / globs (see select-paths.ts). */
  paths?: readonly string[];
}

/** Names a URL and a zip entry cannot carry safely (a backslash reads as a separator on Windows). */
const UNSUPPORTED_NAME = /[\\\u0000-\u001f]/;

/** Files the plan may use; others are skipped with a warning naming them. */
function usableFiles(files: readonly string[], warnings: BuildWarning[]): string[] {
  return files.filter((file) => {
    if (!UNSUPPORTED_NAME.test(file)) return true;
    warnings.push({ code: 'unsupported-file-name', message: `${JSON.stringify(file)} has a backslash or control character in its name; skipped`, file });
    return false;
  });
}

/** slug → file for every page of the repository; `a.mdx` beats `a.md` beats `a/index.mdx`. */
function pageFilesOf(files: readonly string[], listed: ReadonlySet<string>, warnings: BuildWarning[]): Map<string, string> {
  const rank = (f: string): number => (f.endsWith('/index.mdx') || f.endsWith('/index.md') ? 2 : 0) + (f.endsWith('.md') ? 1 : 0);
  const candidates = files.filter((f) => isPageFile(f) || isListedNestedSnippetPage(f, listed) || isListedAgentInstructionPage(f, listed)).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const bySlug = new Map<string, string>();
  for (const file of candidates) {
    const slug = slugForFile(file);
    const prior = bySlug.get(slug);
    if (prior === undefined) bySlug.set(slug, file);
    else warnings.push({ code: 'duplicate-page', message: `${file} has the same URL as ${prior}; ${prior} is used`, file });
  }
  return bySlug;
}

/** Every slug the navigation names as a page (or a group's root page). */
function listedSlugs(sections: readonly RawSection[]): Set<string> {
  const out = new Set<string>();
  const walk = (entries: readonly RawEntry[]): void => {
    for (const e of entries) {
      if (e.kind === 'page') out.add(normaliseRef(e.ref));
      else if (e.kind === 'group') {
        if (e.root !== undefined) out.add(normaliseRef(e.root));
        walk(e.children);
      }
    }
  };
  for (const s of sections) walk(s.sidebar);
  return out;
}

function prune(nodes: NavNode[], keep: ReadonlySet<string>): NavNode[] {
  const out: NavNode[] = [];
  for (const n of nodes) {
    if (n.kind === 'page') {
      if (keep.has(n.slug)) out.push(n);
    } else if (n.kind === 'group') {
      const children = prune(n.children, keep);
      const root = n.root !== undefined && keep.has(n.root) ? n.root : undefined;
      if (children.length === 0 && root === undefined) continue;
      const { root: _dropped, ...rest } = n;
      out.push(root === undefined ? { ...rest, children } : { ...rest, root, children });
    } else {
      out.push(n);
    }
  }
  return out;
}

/** A `fonts` source the bundle cannot serve: a URL elsewhere, or a path that is not a file of the repository. */
function fontSourceWarnings(config: SiteConfig, assets: Record<string, string>, configFile: string): BuildWarning[] {
  const specs = [config.fonts?.body, config.fonts?.heading].filter((s): s is FontSpec => s?.source !== undefined);
  const sources = new Map(specs.map((s) => [s.source as string, s.family]));
  const out: BuildWarning[] = [];
  for (const [source, family] of sources) {
    if (isOutsideBundle(source)) {
      out.push({ code: 'external-style', message: `Font source ${source} is outside the bundle and will not load; "${family}" applies only where a reader has it installed`, file: configFile });
    } else if (assets[toRepoPath(source, configFile) ?? ''] === undefined) {
      out.push({ code: 'missing-asset', message: `Font source ${source} is not a file of the repository; "${family}" applies only where a reader has it installed`, file: configFile });
    }
  }
  return out;
}

function firstSlug(nodes: NavNode[]): string | undefined {
  for (const n of nodes) {
    if (n.kind === 'page') return n.slug;
    if (n.kind === 'group') {
      const s = n.root ?? firstSlug(n.children);
      if (s) return s;
    }
  }
  return undefined;
}

/**
 * Turn a loaded site into the build plan: sections and sidebars from the navigation (every form,
 * both config formats), the list of pages (navigation order, then the pages outside it, built but
 * hidden), redirects to write as static pages, and content-hashed names for every other file.
 */
export function planSite(loaded: LoadedSite, options: PlanOptions = {}): SitePlan {
  const { repoRoot, config, configFile } = loaded;
  const warnings: BuildWarning[] = [];
  const ignored = loaded.ignoredSettings ?? [];
  if (ignored.length > 0) {
    warnings.push({
      code: 'config-ignored',
      message: `${ignored.map((k) => `"${k}"`).join(', ')} ${ignored.length === 1 ? 'is a setting' : 'are settings'} docs-appliance does not apply; the site is built without ${ignored.length === 1 ? 'it' : 'them'}`,
      file: configFile,
    });
  }
  for (const { option, why } of config.contextual?.left ?? []) {
    warnings.push({ code: 'contextual-option', message: `contextual option "${option}" is not shown: ${why}`, file: configFile });
  }
  for (const link of loaded.symlinks ?? []) {
    warnings.push({
      code: 'symbolic-link',
      message: `${link} is a symbolic link and is left out: links are not followed, since one could pull files from outside the repository into the bundle`,
      file: link,
    });
  }
  const files = usableFiles(loaded.files, warnings);
  const navigation =
    config.format === 'mint.json' && Array.isArray(config.navigation)
      ? legacyToNavigation(config.navigation, config.legacy ?? {})
      : config.navigation;
  const filesAt = warnings.length;
  const read = readNavigation(navigation, configFile, warnings);
  // Which files are pages depends on what the navigation lists; their warnings keep their place.
  const pageWarnings: BuildWarning[] = [];
  const pageFiles = pageFilesOf(files, listedSlugs(read.sections), pageWarnings);
  warnings.splice(filesAt, 0, ...pageWarnings);

  const classes = classCandidates(repoRoot);
  // Specs are parsed here, once per export, on first use; workers get each page's part only.
  const api = new ApiPlanner(repoRoot, files, config, configFile, pageFiles, warnings);
  const metaCache = new Map<string, PageMeta>();
  const metaFor = (slug: string): PageMeta => {
    let meta = metaCache.get(slug) ?? api.meta(slug);
    if (!meta) {
      const file = pageFiles.get(slug);
      meta = file === undefined ? {} : readPageMeta(repoRoot, file, (text) => classes.addPage(file, text));
      metaCache.set(slug, meta);
    }
    return meta;
  };
  const built = buildSections(read.sections, pageFiles, metaFor, configFile, warnings, api);

  let selected: Set<string> | undefined;
  const unlisted = api.completeScopes();
  const allSlugs = [...new Set([...pageFiles.keys(), ...built.appearances.map((a) => a.slug), ...unlisted.map((u) => u.slug)])];
  if (options.paths && options.paths.length > 0) selected = selectPaths(options.paths, allSlugs);
  const wanted = (slug: string): boolean => selected === undefined || selected.has(slug);

  const pages: PlannedPage[] = [];
  // Every page the navigation shows, with the section of its first appearance.
  const inNav = new Map<string, string>();
  for (const a of built.appearances) {
    if (!inNav.has(a.slug)) inNav.set(a.slug, a.sectionId);
    if (!wanted(a.slug)) continue;
    const file = pageFiles.get(a.slug) ?? (api.specFileOf(a.slug) as string);
    pages.push({
      slug: a.slug,
      file,
      outputPath: pageFilePath(a.slug),
      sectionId: a.sectionId,
      breadcrumbs: a.breadcrumbs,
      hidden: a.hidden,
    });
  }
  const outside = [...pageFiles.entries()].filter(([slug]) => !inNav.has(slug) && wanted(slug)).sort((a, b) => (a[1] < b[1] ? -1 : 1));
  // One whose path names a navigation language (`es/…`) is shown in that language's first section.
  for (const [slug, file] of outside) {
    const sectionId = sectionOfPath(built.sections, slug)?.id;
    pages.push({ slug, file, outputPath: pageFilePath(slug), ...(sectionId ? { sectionId } : {}), breadcrumbs: [], hidden: true });
  }
  // An operation the navigation does not list is shown in the section of one it lists from the
  // same spec (its tab, version and language: the API reference's sidebar, not the first tab's).
  for (const { slug, anchor } of unlisted) {
    if (inNav.has(slug) || !wanted(slug)) continue;
    const sectionId = inNav.get(anchor);
    pages.push({ slug, file: api.specFileOf(slug) as string, outputPath: pageFilePath(slug), ...(sectionId ? { sectionId } : {}), breadcrumbs: [], hidden: true });
  }

  api.attach(pages, metaFor);

  const visible = pages.filter((p) => !p.hidden);
  visible.forEach((p, i) => {
    const prev = visible[i - 1];
    const next = visible[i + 1];
    if (prev) p.prev = prev.slug;
    if (next) p.next = next.slug;
  });

  let sections: NavSection[] = built.sections;
  if (selected !== undefined) {
    const keep = selected;
    sections = sections
      .map((s) => {
        if (s.external) return s;
        const sidebar = prune(s.sidebar, keep);
        const first = firstSlug(sidebar);
        return { ...s, sidebar, href: first === undefined ? s.href : pageHref(first) };
      })
      .filter((s) => s.external || s.sidebar.length > 0);
  }

  const pageTitles: Record<string, string> = {};
  for (const p of pages) pageTitles[p.slug] = metaFor(p.slug).title ?? titleFromSlug(p.slug);

  classes.addOtherSources(files, config.customJs);
  const tailwind = planTailwind(classes.candidates, config.colors, classes.pageWide);

  warnings.push(...navigationIconWarnings({ repoRoot, configFile, config, sections, globalLinks: read.globalLinks, pages }));

  const planned = planAssets(repoRoot, files, { css: config.customCss, js: config.customJs });
  warnings.push(...planned.warnings, ...fontSourceWarnings(config, planned.assets, configFile));
  const redirects = planRedirects(config, new Set(allSlugs), new Set(Object.keys(planned.assets)), configFile, warnings);
  return {
    repoRoot,
    config,
    sections,
    globalLinks: read.globalLinks,
    pages,
    redirects: redirects.pages,
    redirectRules: redirects.rules,
    assets: planned.assets,
    warnings,
    pageTitles,
    assetDigests: planned.digests,
    rewrittenAssets: planned.rewritten,
    ...(tailwind ? { tailwind } : {}),
    ...(api.registry.markdownDocs.size > 0 ? { apiDocs: Object.fromEntries(api.registry.markdownDocs) } : {}),
  };
}
