import { RenderError, type NavLink, type SiteConfig } from '../types.js';
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
  type Json,
} from './config-fields.js';

function footerSocials(raw: Json, file: string): Record<string, string> {
  const out: Record<string, string> = {};
  const footer = isObject(raw['footer']) ? raw['footer'] : {};
  const source = raw['footerSocials'] ?? footer['socials'];
  if (Array.isArray(source)) {
    // The oldest form: [{ "type": "github", "url": "…" }]
    for (const s of source) if (isObject(s) && str(s['type']) && str(s['url'])) out[s['type'] as string] = s['url'] as string;
  } else if (isObject(source)) {
    for (const [k, v] of Object.entries(source)) if (typeof v === 'string') out[k] = v;
  } else if (source !== undefined) {
    throw new RenderError('"footerSocials" must be an object or an array', { file });
  }
  return out;
}

/**
 * Legacy mint.json → SiteConfig. Its navigation is a top-level array of groups; `tabs`, `anchors`,
 * `primaryTab` and `versions` decide which group goes where, by URL prefix. Those are kept in
 * `legacy` and interpreted by plan, so both formats share one navigation interpreter.
 */
/** The top-level mint.json settings this file reads; the others are reported as not applied. */
export const MINT_JSON_SETTINGS: ReadonlySet<string> = new Set([
  'name', 'colors', 'logo', 'favicon', 'navigation', 'topbarLinks', 'topbarCtaButton', 'footer', 'footerSocials',
  'modeToggle', 'appliance', 'tabs', 'anchors', 'primaryTab', 'versions', 'topAnchor', 'redirects',
  // API reference (renderer/openapi): the specs and how generated pages show them.
  'openapi', 'api',
  // Reader analytics (renderer/load/reader-analytics.ts).
  'feedback',
]);

export function normaliseMintJson(raw: Json, file: string): Omit<SiteConfig, 'customCss' | 'customJs'> {
  const navigation = raw['navigation'];
  if (!Array.isArray(navigation)) throw new RenderError('"navigation" must be an array of groups', { file });

  const links: NavLink[] = navLinks(raw['topbarLinks'], 'topbarLinks', file);
  const cta = expectObject(raw['topbarCtaButton'], 'topbarCtaButton', file);
  let primary: NavLink | undefined;
  if (cta) {
    primary = navLink(cta);
    if (primary && cta['type'] === 'github' && primary.label === primary.href) primary.label = 'GitHub';
  }
  const footer = isObject(raw['footer']) ? raw['footer'] : {};
  const footerLinks = expectArray(footer['links'], 'footer.links', file)
    .filter(isObject)
    .map((col) => {
      const header = str(col['title']) ?? str(col['header']);
      const items = navLinks(col['links'] ?? col['items'], 'footer.links[].links', file);
      return header === undefined ? { items } : { header, items };
    });
  const modeToggle = isObject(raw['modeToggle']) ? raw['modeToggle'] : {};
  const appliance = expectObject(raw['appliance'], 'appliance', file) ?? {};

  const legacy: Record<string, unknown> = {};
  for (const key of ['tabs', 'anchors', 'primaryTab', 'versions', 'topAnchor']) {
    if (raw[key] !== undefined) legacy[key] = raw[key];
  }
  expectArray(raw['tabs'], 'tabs', file);
  expectArray(raw['anchors'], 'anchors', file);

  const config: Omit<SiteConfig, 'customCss' | 'customJs'> = {
    format: 'mint.json',
    name: str(raw['name']) ?? 'Documentation',
    colors: colors(raw['colors'], file),
    appearance: appearance({ default: modeToggle['default'], strict: modeToggle['isHidden'] === true }),
    navbar: primary ? { links, primary } : { links },
    footer: { socials: footerSocials(raw, file), links: footerLinks },
    variables: {},
    redirects: redirects(raw['redirects'], file),
    allowUnsafeHtml: appliance['allowUnsafeHtml'] === true,
    navigation,
    legacy,
  };
  const api = expectObject(raw['api'], 'api', file) ?? {};
  if (raw['openapi'] !== undefined || Object.keys(api).length > 0) config.api = { ...(raw['openapi'] !== undefined ? { openapi: raw['openapi'] } : {}), raw: api };
  const lg = logo(raw['logo']);
  if (lg) config.logo = lg;
  const fav = favicon(raw['favicon']);
  if (fav) config.favicon = fav;
  return config;
}
