import { markers } from '../access/node-requirement.js';
import type { PageContent, PlannedPage, RenderContext } from '../types.js';
import { contextualMenu } from './contextual-menu.js';
import { TAILWIND_ASSET } from '../tailwind/index.js';
import { THEME_ASSET_NAMES } from '../theme/assets.js';
import { customStyles, sectionChrome, sidebarFor, siteChrome, type SiteChrome } from './chrome.js';
import { splitExamples } from './examples.js';
import { template } from './templates.js';
import { crumbsFor, type Crumb } from './breadcrumbs.js';
import { textDirection } from './direction.js';
import { languageOf } from '../i18n/language.js';
import { pageStringsAttr } from '../i18n/page-strings.js';
import { canonicalPath, portableHref } from '../page-urls.js';

export { loadThemeAssets } from '../theme/assets.js';
export { sharedSidebars } from './sidebar-window.js';

/** Frontmatter `mode` → which parts of the chrome a page shows (Mintlify's page modes). */
function modeParts(mode: string | undefined): { sidebar: boolean; toc: boolean; header: boolean; bodyClass: string } {
  switch (mode) {
    case 'wide':
      return { sidebar: true, toc: false, header: true, bodyClass: 'mode-wide' };
    case 'custom':
      return { sidebar: false, toc: false, header: false, bodyClass: 'mode-custom' };
    case 'center':
      return { sidebar: false, toc: false, header: true, bodyClass: 'mode-center' };
    case 'not-found':
      return { sidebar: false, toc: false, header: false, bodyClass: 'mode-center mode-not-found' };
    case 'frame':
      return { sidebar: true, toc: false, header: false, bodyClass: 'mode-frame' };
    default:
      return { sidebar: true, toc: true, header: true, bodyClass: 'mode-default' };
  }
}


interface DocumentParts {
  slug: string | undefined;
  sectionId: string | undefined;
  documentTitle: string;
  ogTitle: string;
  description: string | undefined;
  canonical: string | undefined;
  robots?: string;
  pageTitle: string;
  /** A "deprecated" label beside the title (frontmatter `deprecated: true` on a page without an endpoint bar, which has its own). */
  deprecated?: boolean;
  pageDescription: string | undefined;
  breadcrumbs: Crumb[];
  content: string;
  toc: PageContent['toc'];
  prev?: { title: string; url: string; open?: string; close?: string } | undefined;
  next?: { title: string; url: string; open?: string; close?: string } | undefined;
  mode: string | undefined;
  usesMath: boolean;
  usesMermaid: boolean;
  usesPlayground?: boolean;
  /** Running components' runtime and modules (renderer/islands), in load order. */
  islandScripts?: string[];
  /** The page menu (contextual-menu.ts), '' when the site has none. */
  contextual?: string;
}

function assemble(chrome: SiteChrome, parts: DocumentParts): string {
  const config = chrome.ctx.config;
  const section = sectionChrome(chrome, parts.sectionId);
  const mode = modeParts(parts.mode);
  // Pages without a sidebar (custom, center, 404) still get it as the phone drawer: a landing
  // page must not strand a phone reader without navigation. CSS hides it on wide screens.
  const hasDrawer = section.sidebar.html !== '' || section.sidebarTop.trim() !== '';
  const hasSidebar = mode.sidebar && hasDrawer;
  const styles = [...chrome.baseStyles];
  if (parts.usesMath) styles.push(chrome.asset(THEME_ASSET_NAMES.katexCss));
  if (parts.usesPlayground) styles.push(chrome.asset(THEME_ASSET_NAMES.playgroundCss));
  // After the theme (equal specificity never arises: utilities are id-scoped), before the
  // repository's own stylesheets, which keep the last word.
  const tailwind = chrome.ctx.themeAssets[TAILWIND_ASSET];
  if (tailwind) styles.push(tailwind);
  styles.push(...customStyles(chrome));
  const scripts = [...chrome.baseScripts];
  if (parts.usesMermaid) scripts.push({ src: chrome.asset(THEME_ASSET_NAMES.mermaidJs) });
  if (parts.usesPlayground) scripts.push({ src: chrome.asset(THEME_ASSET_NAMES.playgroundJs) });
  for (const src of parts.islandScripts ?? []) scripts.push({ src });
  scripts.push(...chrome.customScripts);
  // Request/response examples take the right-hand column, so such pages show no toc.
  const { body, examples } = mode.sidebar && mode.header ? splitExamples(parts.content) : { body: parts.content, examples: '' };
  const toc = mode.toc && !examples ? parts.toc.filter((e) => e.depth <= 3) : [];
  // The page menu sits in the toc when the config says so and the page has one; in the header otherwise.
  const menuInToc = toc.length > 0 && config.contextual?.display === 'toc';
  const appearance = config.appearance;
  const lang = languageOf(section.section);
  return template('document')({
    csp: chrome.ctx.metaCsp,
    t: section.strings,
    pageStrings: pageStringsAttr(section.strings, parts.usesPlayground === true),
    lang,
    dir: textDirection(lang),
    searchScope: section.section ? chrome.ctx.searchScopes?.[section.section.id] : undefined,
    defaultTheme: appearance.default === 'system' ? undefined : appearance.default,
    appearance: appearance.default,
    strict: appearance.strict,
    documentTitle: parts.documentTitle,
    siteName: config.name,
    ogTitle: parts.ogTitle,
    description: parts.description,
    canonical: parts.canonical,
    robots: parts.robots,
    favicon: chrome.favicon,
    assets: { themeInit: chrome.asset(THEME_ASSET_NAMES.themeInitJs) },
    styles,
    brandCss: chrome.brandCss,
    scripts,
    bodyClass: `${mode.bodyClass}${hasSidebar ? ' has-sidebar' : ''}${toc.length > 0 ? ' has-toc' : ''}${section.tabs ? ' has-tabs' : ''}${examples ? ' has-examples' : ''}`,
    topbar: hasDrawer ? section.topbar : section.topbarBare,
    tabs: section.tabs,
    showSidebar: hasDrawer,
    sidebarTop: section.drawerLanguage + section.sidebarTop,
    sidebar: hasDrawer ? sidebarFor(section, parts.slug) : '',
    sidebarSrc: hasDrawer ? section.sidebarSrc : undefined,
    showHeader: mode.header,
    contextualHeader: menuInToc ? '' : (parts.contextual ?? ''),
    contextualToc: menuInToc ? (parts.contextual ?? '') : '',
    breadcrumbs: parts.breadcrumbs,
    pageTitle: parts.pageTitle,
    deprecated: parts.deprecated === true,
    pageDescription: parts.pageDescription,
    content: body,
    examples,
    prev: parts.prev,
    next: parts.next,
    showToc: toc.length > 0,
    toc,
    footer: section.footer,
    drawerLinks: chrome.drawerLinks,
    searchDialog: section.searchDialog,
    pageFeedback: section.pageFeedback,
    metatags: chrome.metatags,
    banner: chrome.banner,
  });
}

function neighbour(ctx: RenderContext, slug: string | undefined): { title: string; url: string; open?: string; close?: string } | undefined {
  if (!slug) return undefined;
  const entry = ctx.pageIndex[slug];
  if (!entry) return undefined;
  // Reader access: a restricted neighbour's link is a fragment only its readers receive.
  const req = ctx.pageAccess?.[slug];
  return req && req !== 'public' ? { title: entry.title, url: entry.url, ...markers(req) } : { title: entry.title, url: entry.url };
}

/** `styling.eyebrows: "section"` shows only the page's own group, Mintlify's default look. */
function eyebrow(ctx: RenderContext, crumbs: Crumb[]): Crumb[] {
  return ctx.config.eyebrows === 'section' ? crumbs.slice(-1) : crumbs;
}


/**
 * The full HTML document of one page. Runs once per page in the render workers: templates are
 * compiled once per process, the chrome once per ctx and the sidebar once per section; per page
 * only the current link is marked and the document template filled.
 */
export function renderDocument(input: { page: PlannedPage; content: PageContent; ctx: RenderContext }): string {
  const { page, content, ctx } = input;
  const chrome = siteChrome(ctx);
  const siteName = ctx.config.name;
  const title = content.title || ctx.pageIndex[page.slug]?.title || siteName;
  const description = content.description ?? (page.slug === 'index' ? ctx.config.description : undefined);
  return assemble(chrome, {
    slug: page.slug,
    sectionId: page.sectionId ?? ctx.pageIndex[page.slug]?.sectionId,
    documentTitle: title === siteName ? siteName : `${title} - ${siteName}`,
    ogTitle: title,
    description,
    canonical: canonicalPath(page.slug),
    ...(content.frontmatter['noindex'] === true ? { robots: 'noindex' } : {}),
    pageTitle: title,
    ...(content.frontmatter['deprecated'] === true && !page.api && content.frontmatter['openapi'] === undefined && content.frontmatter['api'] === undefined ? { deprecated: true } : {}),
    pageDescription: content.description,
    breadcrumbs: eyebrow(ctx, crumbsFor(ctx, page.sectionId ?? ctx.pageIndex[page.slug]?.sectionId, page.breadcrumbs)),
    content: content.html,
    toc: content.toc,
    prev: neighbour(ctx, page.prev),
    next: neighbour(ctx, page.next),
    mode: content.mode,
    usesMath: content.usesMath,
    usesMermaid: content.usesMermaid,
    usesPlayground: content.usesPlayground === true,
    ...(content.islands ? { islandScripts: content.islands.scripts } : {}),
    contextual: contextualMenu(ctx.config.contextual, page, ctx, sectionChrome(chrome, page.sectionId ?? ctx.pageIndex[page.slug]?.sectionId).strings),
  });
}

/**
 * A static stand-in for a server redirect: meta refresh (works without script, CSP-safe),
 * canonical pointing at the target so crawlers move on, and a plain link as the fallback.
 */
export function renderRedirectPage(to: string, ctx: RenderContext): string {
  let target = to.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    if (!/^https?:/i.test(target)) target = '/';
  } else {
    // A plain static server has no rewrite rules: `/x` must be written `/x/` to find `x/index.html`.
    target = portableHref(target.startsWith('/') ? target : '/' + target);
  }
  return template('redirect')({ to: target, csp: ctx.metaCsp });
}

/** The bundle's 404.html: the site chrome around a short message, with search working. */
export function renderNotFoundPage(ctx: RenderContext): string {
  const chrome = siteChrome(ctx);
  const home = ctx.pageIndex['index']?.url ?? '/';
  // One 404.html for the whole site: in the language of the section a reader lands in first.
  const t = sectionChrome(chrome, undefined).strings;
  const content = template('not-found')({ home, t });
  return assemble(chrome, {
    slug: undefined,
    sectionId: undefined,
    documentTitle: `${t.notFoundTitle} - ${ctx.config.name}`,
    ogTitle: t.notFoundTitle,
    description: undefined,
    canonical: undefined,
    robots: 'noindex',
    pageTitle: t.notFoundTitle,
    pageDescription: undefined,
    breadcrumbs: [],
    content,
    toc: [],
    mode: 'not-found',
    usesMath: false,
    usesMermaid: false,
  });
}
