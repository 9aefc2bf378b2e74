import { createHash } from 'node:crypto';
import { pageFeedbackParts } from './page-feedback.js';
import { chromeStrings, type ChromeStrings } from '../i18n/chrome-strings.js';
import { defaultSection, languageOf } from '../i18n/language.js';
import { marked } from 'marked';
import { sanitizePhrasingHtml } from '../page/sanitize.js';
import type { DivisionKind, NavLink, NavSection, RenderContext } from '../types.js';
import { THEME_ASSET_NAMES, themeAssetUrls } from '../theme/assets.js';
import { SEARCH_BASE_URL } from '../search-options.js';
import { brandCss } from './colors.js';
import { fontCss } from './fonts.js';
import { isExternalHref, safeHref } from './escape.js';
import { layoutIcons, socialIcon, type LayoutIcon } from './icon.js';
import { labelledNavLink } from './nav-label.js';
import { markCurrent, prepareSidebar, type PreparedSidebar } from './sidebar.js';
import { sidebarWindows, windowFor } from './sidebar-window.js';
import { switcherLevels, type SwitcherLevel } from './switchers.js';
import { treeRequirement } from '../access/node-requirement.js';
import { template } from './templates.js';

const KIND_LABELS: Record<DivisionKind, keyof ChromeStrings> = {
  tab: 'sections',
  anchor: 'quickLinks',
  dropdown: 'section',
  product: 'product',
  version: 'version',
  language: 'language',
  menu: 'menu',
};

/** What a switcher or tab bar of a kind is called, in the section's language. */
export function kindLabel(kind: DivisionKind, t: ChromeStrings = chromeStrings(undefined)): string {
  return t[KIND_LABELS[kind]];
}

/** The parts of a page that depend on the section only (switchers and sidebar). */
export interface SectionChrome {
  section: NavSection | undefined;
  tabs: string;
  sidebarTop: string;
  /** The language switcher again, at the top of the phone drawer (the top bar is too narrow there). */
  drawerLanguage: string;
  /** Top bar with the menu button (pages with a sidebar or drawer) and without (a site with no navigation). */
  topbar: string;
  topbarBare: string;
  sidebar: PreparedSidebar;
  /** The chrome's words in the section's navigation language (renderer/i18n). */
  strings: ChromeStrings;
  /** "Was this page helpful?" in that language, '' when the config turns feedback off. */
  pageFeedback: string;
  /** The footer in that language. */
  footer: string;
  /** The search dialog, its field in that language. */
  searchDialog: string;
  /** A large section: the window around a page (sidebar-window.ts), and the shared file of the whole tree. */
  windowFor?: (slug: string | undefined) => PreparedSidebar;
  sidebarSrc?: string;
}

/** Everything that is the same on every page of one export, rendered once per ctx. */
export interface SiteChrome {
  ctx: RenderContext;
  asset: (name: string) => string;
  brandCss: string;
  baseStyles: string[];
  baseScripts: { src: string; data?: Record<string, string> }[];
  customScripts: { src: string }[];
  favicon: { href: string; type?: string } | undefined;
  /** The footer in a language's words (the social links' label), rendered once per language. */
  footerFor: (strings: ChromeStrings) => string;
  /** The top bar's links again, for the phone drawer where the top bar has no room for them. */
  drawerLinks: string;
  /** The config's announcement, rendered once; `key` changes with its text, so a new one shows again after a dismissal. */
  banner: { html: string; dismissible: boolean; key: string } | undefined;
  /** `seo.metatags` of the config, minus those every page sets itself. */
  metatags: { attr: 'name' | 'property'; name: string; content: string }[];
  sectionsById: Map<string, NavSection>;
  defaultSection: NavSection | undefined;
  topbarFor: (languageSwitcher: string, hasSidebar: boolean, strings: ChromeStrings) => string;
  pageFeedbackFor: (strings: ChromeStrings) => string;
  sectionCache: Map<string, SectionChrome>;
}

interface LinkView {
  label: string;
  href: string;
  external: boolean;
  icon: string;
}

function linkView(icon: LayoutIcon): (given: NavLink) => LinkView {
  return (given) => {
    const link = labelledNavLink(given);
    const href = safeHref(link.href);
    return { label: link.label, href, external: isExternalHref(href), icon: icon(link.icon, 'icon link-icon') };
  };
}

function faviconType(url: string): string | undefined {
  const ext = url.split('?')[0]?.split('.').pop()?.toLowerCase();
  return ext === 'svg' ? 'image/svg+xml' : ext === 'png' ? 'image/png' : ext === 'ico' ? 'image/x-icon' : undefined;
}

function assetUrl(ctx: RenderContext, repoPath: string | undefined): string | undefined {
  if (!repoPath) return undefined;
  const key = repoPath.replace(/^\.?\//, '');
  return ctx.assets[key] ?? ctx.assets['/' + key];
}

// One worker keeps the same ctx object for all its pages; a WeakMap lets a new export's ctx
// start fresh without any cache invalidation rules.
const chromeCache = new WeakMap<RenderContext, SiteChrome>();

export function siteChrome(ctx: RenderContext): SiteChrome {
  const hit = chromeCache.get(ctx);
  if (hit) return hit;
  // The write stage fills ctx.themeAssets; the process-local table covers a ctx built without it.
  const asset = (name: string): string => {
    const url = ctx.themeAssets[name] ?? themeAssetUrls()[name];
    if (!url) throw new Error(`theme asset ${name} is not in the bundle`);
    return url;
  };
  const config = ctx.config;

  const faviconHref = assetUrl(ctx, config.favicon);
  const logoLight = assetUrl(ctx, config.logo?.light) ?? assetUrl(ctx, config.logo?.dark);
  const logoDark = assetUrl(ctx, config.logo?.dark) ?? logoLight;
  const view = linkView(layoutIcons(config));
  const links = [...config.navbar.links, ...ctx.globalLinks].map(view);
  const primary = config.navbar.primary ? view(config.navbar.primary) : undefined;
  const topbarTemplate = template('topbar');
  const topbarFor = (languageSwitcher: string, hasSidebar: boolean, strings: ChromeStrings): string =>
    topbarTemplate({
      t: strings,
      siteName: config.name,
      homeHref: config.logo?.href ? safeHref(config.logo.href) : '/',
      logoLight,
      logoDark,
      links,
      primary,
      languageSwitcher,
      hasSidebar,
      strict: config.appearance.strict,
    });

  const socials = Object.entries(config.footer.socials).map(([key, href]) => ({
    href: safeHref(href),
    ...socialIcon(key),
  }));
  const columns = config.footer.links.map((column) => ({ header: column.header, items: column.items.map(view) }));
  const footerTemplate = template('footer');
  const footers = new Map<ChromeStrings, string>();
  const footerFor = (strings: ChromeStrings): string => {
    let hit = footers.get(strings);
    if (hit === undefined) footers.set(strings, (hit = footerTemplate({ t: strings, siteName: config.name, columns, socials })));
    return hit;
  };

  const drawerLinks = template('drawer-links')({ links, primary });

  const sectionsById = new Map(ctx.sections.map((s) => [s.id, s]));
  const readers = pageFeedbackParts(config, asset);
  const chrome: SiteChrome = {
    ctx,
    asset,
    brandCss: brandCss(config.colors) + fontCss(config.fonts, (p) => assetUrl(ctx, p)),
    baseStyles: [
      asset(THEME_ASSET_NAMES.siteCss),
      asset(THEME_ASSET_NAMES.componentsCss),
      ...readers.styles,
      asset(THEME_ASSET_NAMES.assistantCss),
      ...(config.contextual?.options.length ? [asset(THEME_ASSET_NAMES.contextualCss)] : []),
    ],
    baseScripts: [
      { src: asset(THEME_ASSET_NAMES.siteJs) },
      { src: asset(THEME_ASSET_NAMES.componentsJs) },
      { src: asset(THEME_ASSET_NAMES.searchJs), data: { minisearch: asset(THEME_ASSET_NAMES.minisearchJs), search: SEARCH_BASE_URL } },
      ...readers.scripts,
      { src: asset(THEME_ASSET_NAMES.assistantJs) },
      ...(config.contextual?.options.length ? [{ src: asset(THEME_ASSET_NAMES.contextualJs) }] : []),
    ],
    customScripts: config.customJs.flatMap((p) => {
      const src = assetUrl(ctx, p);
      return src ? [{ src }] : [];
    }),
    favicon: faviconHref ? { href: faviconHref, ...(faviconType(faviconHref) ? { type: faviconType(faviconHref) } : {}) } : undefined,
    footerFor,
    drawerLinks,
    pageFeedbackFor: readers.html,
    metatags: siteMetatags(config.seo?.metatags ?? []),
    banner: config.banner ? siteBanner(config.banner) : undefined,
    sectionsById,
    defaultSection: defaultSection(ctx.sections),
    topbarFor,
    sectionCache: new Map(),
  };
  chromeCache.set(ctx, chrome);
  return chrome;
}

/** Tags the document template writes on its own: a config tag of the same name would contradict it. */
const OWN_META = new Set(['description', 'viewport', 'color-scheme', 'theme-color', 'generator', 'robots', 'og:type', 'og:site_name', 'og:title', 'og:description']);
/** Open Graph and its families are `property` tags; everything else (twitter:*, keywords…) is `name`. */
const PROPERTY_META = /^(?:og|article|book|profile|music|video|fb):/i;

function siteMetatags(tags: readonly { name: string; content: string }[]): SiteChrome['metatags'] {
  return tags
    .filter((t) => t.name.trim() !== '' && !OWN_META.has(t.name.toLowerCase()))
    .map((t) => ({ attr: PROPERTY_META.test(t.name) ? 'property' : 'name', name: t.name, content: t.content }));
}

/** Inline Markdown (links, emphasis, code), sanitised down to text that loads nothing. */
function siteBanner(banner: NonNullable<RenderContext['config']['banner']>): NonNullable<SiteChrome['banner']> {
  const html = sanitizePhrasingHtml(marked.parseInline(banner.content, { async: false, gfm: true }));
  return { html, dismissible: banner.dismissible, key: createHash('sha256').update(banner.content).digest('hex').slice(0, 12) };
}

/** Custom CSS comes last so the customer's rules win over the theme. */
export function customStyles(chrome: SiteChrome): string[] {
  return chrome.ctx.config.customCss.flatMap((p) => {
    const href = assetUrl(chrome.ctx, p);
    return href ? [href] : [];
  });
}

export function sectionChrome(chrome: SiteChrome, sectionId: string | undefined): SectionChrome {
  const key = sectionId ?? '\u0000none';
  const hit = chrome.sectionCache.get(key);
  if (hit) return hit;
  const section = (sectionId ? chrome.sectionsById.get(sectionId) : undefined) ?? chrome.defaultSection;
  const levels = switcherLevels(chrome.ctx.sections, section, chrome.ctx.pageAccess ? (s) => treeRequirement(chrome.ctx, s.sidebar) : undefined);
  const icon = layoutIcons(chrome.ctx.config);
  const strings = chromeStrings(languageOf(section));
  const label = (kind: DivisionKind): string => kindLabel(kind, strings);
  const pick = (test: (l: SwitcherLevel) => boolean) => ({ levels: levels.filter(test), label, icon });
  const languageSwitcher = template('switchers')(pick((l) => l.kind === 'language'));
  const built: SectionChrome = {
    strings,
    pageFeedback: chrome.pageFeedbackFor(strings),
    searchDialog: template('search-dialog')({ t: strings }),
    footer: chrome.footerFor(strings),
    section,
    tabs: template('tabs')(pick((l) => l.kind === 'tab')),
    topbar: chrome.topbarFor(languageSwitcher, true, strings),
    topbarBare: chrome.topbarFor(languageSwitcher, false, strings),
    sidebarTop: template('switchers')(pick((l) => l.kind !== 'tab' && l.kind !== 'language')),
    drawerLanguage: languageSwitcher.trim() ? `<div class="drawer-only">${languageSwitcher}</div>` : '',
    sidebar: prepareSidebar([], chrome.ctx, strings),
  };
  const shared = section ? chrome.ctx.sidebarFiles?.[section.id] : undefined;
  if (section && shared) {
    const windows = sidebarWindows(section.sidebar);
    built.windowFor = (slug) => windowFor(windows, slug, chrome.ctx, strings);
    built.sidebar = built.windowFor(undefined);
    built.sidebarSrc = shared;
  } else {
    built.sidebar = prepareSidebar(section?.sidebar ?? [], chrome.ctx, strings);
  }
  chrome.sectionCache.set(key, built);
  return built;
}

export function sidebarFor(section: SectionChrome, slug: string | undefined): string {
  const prepared = section.windowFor ? section.windowFor(slug) : section.sidebar;
  return slug === undefined ? prepared.html : markCurrent(prepared, slug);
}
