import { RenderError, type FontSpec, type SiteConfig } from '../types.js';
import {
  appearance,
  colors,
  expectArray,
  expectObject,
  favicon,
  isObject,
  logo,
  navLink,
  navLinks,
  redirects,
  str,
  variables,
  type Json,
} from './config-fields.js';
import { contextualSettings } from './contextual.js';

/**
 * The top-level docs.json settings this file reads; the others are reported as not applied.
 * `theme` is required by Mintlify's schema and accepted: every theme renders in the appliance's one look.
 */
export const DOCS_JSON_SETTINGS: ReadonlySet<string> = new Set([
  'theme', 'name', 'description', 'colors', 'appearance', 'navbar', 'footer', 'variables', 'redirects', 'appliance', 'navigation', 'logo', 'favicon',
  // Of `styling`, only this part is read; its other settings are reported by their dotted names.
  'styling.eyebrows',
  'seo',
  'banner',
  'fonts',
  'icons',
  // API reference (renderer/openapi): the parts that shape generated pages.
  'api.openapi', 'api.examples', 'api.params', 'api.url', 'api.mdx', 'api.baseUrl',
  // The "Try it" playground (renderer/openapi/settings.ts playgroundSettings).
  'api.playground',
  // The Markdown of pages (renderer/retrieval): the API spec on API pages, instructions to agents.
  'markdown.schema', 'markdown.instructions',
  // The page menu (renderer/load/contextual.ts, renderer/layout/contextual-menu.ts).
  'contextual',
  // Reader analytics (renderer/load/reader-analytics.ts).
  'integrations.telemetry',
]);

function fontSpec(raw: Record<string, unknown>, base?: FontSpec): FontSpec | undefined {
  const family = str(raw['family']) ?? base?.family;
  if (!family) return undefined;
  const weight = typeof raw['weight'] === 'number' ? raw['weight'] : raw['family'] === undefined ? base?.weight : undefined;
  // A heading or body block that names its own family does not borrow the top-level file.
  const inherit = raw['family'] === undefined ? base : undefined;
  const source = str(raw['source']) ?? inherit?.source;
  const format = str(raw['format']) ?? inherit?.format;
  return {
    family,
    ...(weight !== undefined && Number.isInteger(weight) && weight >= 1 && weight <= 1000 ? { weight } : {}),
    ...(source ? { source } : {}),
    ...(format ? { format } : {}),
  };
}

/** docs.json (the current Mintlify format) → SiteConfig. Navigation is kept as is for plan. */
export function normaliseDocsJson(raw: Json, file: string): Omit<SiteConfig, 'customCss' | 'customJs'> {
  const navbar = expectObject(raw['navbar'], 'navbar', file) ?? {};
  const footer = expectObject(raw['footer'], 'footer', file) ?? {};
  const appliance = expectObject(raw['appliance'], 'appliance', file) ?? {};
  const navigation = raw['navigation'];
  if (navigation === undefined) throw new RenderError('"navigation" is missing', { file });
  if (!isObject(navigation) && !Array.isArray(navigation)) {
    throw new RenderError('"navigation" must be an object', { file });
  }

  const primary = navLink(navbar['primary']);
  const socials: Record<string, string> = {};
  for (const [k, v] of Object.entries(expectObject(footer['socials'], 'footer.socials', file) ?? {})) {
    if (typeof v === 'string') socials[k] = v;
  }
  const footerLinks = expectArray(footer['links'], 'footer.links', file)
    .filter(isObject)
    .map((col) => {
      const header = str(col['header']) ?? str(col['title']);
      const items = navLinks(col['items'] ?? col['links'], 'footer.links[].items', file);
      return header === undefined ? { items } : { header, items };
    });

  const config: Omit<SiteConfig, 'customCss' | 'customJs'> = {
    format: 'docs.json',
    name: str(raw['name']) ?? 'Documentation',
    colors: colors(raw['colors'], file),
    appearance: appearance(raw['appearance']),
    navbar: primary ? { links: navLinks(navbar['links'], 'navbar.links', file), primary } : { links: navLinks(navbar['links'], 'navbar.links', file) },
    footer: { socials, links: footerLinks },
    variables: variables(raw['variables'], file),
    redirects: redirects(raw['redirects'], file),
    allowUnsafeHtml: appliance['allowUnsafeHtml'] === true,
    navigation,
  };
  const styling = expectObject(raw['styling'], 'styling', file) ?? {};
  if (styling['eyebrows'] === 'section' || styling['eyebrows'] === 'breadcrumbs') config.eyebrows = styling['eyebrows'];
  const fonts = expectObject(raw['fonts'], 'fonts', file);
  if (fonts) {
    // Top-level family/weight/source apply to both; `heading` and `body` override them.
    const base = fontSpec(fonts);
    const heading = fontSpec(expectObject(fonts['heading'], 'fonts.heading', file) ?? {}, base);
    const body = fontSpec(expectObject(fonts['body'], 'fonts.body', file) ?? {}, base);
    config.fonts = { ...(body ? { body } : {}), ...(heading ? { heading } : {}) };
  }
  const banner = expectObject(raw['banner'], 'banner', file);
  const bannerContent = banner ? str(banner['content']) : undefined;
  if (bannerContent?.trim()) config.banner = { content: bannerContent, dismissible: banner?.['dismissible'] === true };
  const seo = expectObject(raw['seo'], 'seo', file);
  if (seo) {
    const metatags = Object.entries(expectObject(seo['metatags'], 'seo.metatags', file) ?? {}).flatMap(([name, content]) =>
      typeof content === 'string' || typeof content === 'number' || typeof content === 'boolean' ? [{ name, content: String(content) }] : [],
    );
    config.seo = { metatags, indexing: seo['indexing'] === 'all' ? 'all' : 'navigable' };
  }
  const markdown = expectObject(raw['markdown'], 'markdown', file);
  if (markdown) {
    const lines = typeof markdown['instructions'] === 'string' ? [markdown['instructions']] : Array.isArray(markdown['instructions']) ? markdown['instructions'].filter((l): l is string => typeof l === 'string') : [];
    const instructions = lines.map((l) => l.trim()).filter(Boolean).join('\n');
    config.markdown = { schema: markdown['schema'] !== false, ...(instructions ? { instructions } : {}) };
  }
  const contextual = expectObject(raw['contextual'], 'contextual', file);
  if (contextual) {
    const settings = contextualSettings(contextual);
    if (settings.options.length > 0 || settings.left.length > 0) config.contextual = settings;
  }
  const icons = expectObject(raw['icons'], 'icons', file);
  const library = icons ? str(icons['library']) : undefined;
  if (library) config.iconLibrary = library;
  const api = expectObject(raw['api'], 'api', file);
  if (api) config.api = { ...(api['openapi'] !== undefined ? { openapi: api['openapi'] } : {}), raw: api };
  const description = str(raw['description']);
  if (description) config.description = description;
  const lg = logo(raw['logo']);
  if (lg) config.logo = lg;
  const fav = favicon(raw['favicon']);
  if (fav) config.favicon = fav;
  return config;
}
