/**
 * Links and asset references: local images and files go through the content-hashed asset map,
 * internal page links are checked against the page index, dangerous schemes are neutralised.
 */
import { pageHref } from '../page-urls.js';
import { splitUrlSuffix, toSitePath } from '../repo-paths.js';
import { locate, type Env } from './env.js';
import { followRedirects } from './redirects.js';
import type { PageState } from './state.js';

const SCHEME_RE = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
const DANGEROUS_SCHEMES = new Set(['javascript', 'vbscript', 'data', 'file']);
const PAGE_EXT_RE = /\.(?:mdx|md)$/i;
/** Looks like a file name (`a.pdf`, `clip.mp4`) rather than a page slug. */
const FILE_EXT_RE = /\.[a-z][a-z0-9]{0,7}$/i;
/** Control characters and whitespace browsers ignore inside a scheme (`java\tscript:`). */
const URL_NOISE_RE = /[\u0000-\u0020\u007f-\u009f]/g;

function warnAt(state: PageState, env: Env, code: string, message: string, needle: string): void {
  if (!state.wants(code)) return;
  const where = locate(env, needle);
  state.warn(code, message, where.file, where.line);
}

function isDangerous(url: string): boolean {
  const scheme = SCHEME_RE.exec(url.replace(URL_NOISE_RE, ''))?.[1]?.toLowerCase();
  return scheme !== undefined && DANGEROUS_SCHEMES.has(scheme);
}

/** An `href`: returns what to emit. Warns `broken-link` / `missing-asset` for local targets. */
export function resolveHref(raw: string, state: PageState, env: Env): string {
  const href = raw.trim();
  if (href === '' || href.startsWith('#')) return href;
  if (isDangerous(href)) {
    if (state.unsafeHtml && !href.toLowerCase().startsWith('data:')) return href;
    warnAt(state, env, 'unsafe-link', `Removed a ${href.split(':')[0]}: link`, href);
    return '#';
  }
  if (SCHEME_RE.test(href) || href.startsWith('//')) return href;
  const { path: p, suffix } = splitUrlSuffix(href);
  if (p === '') return href;
  const rel = toSitePath(p, state.pageFile);
  const asset = state.ctx.assets[rel];
  if (asset !== undefined) return asset + suffix;
  let slug = rel.replace(PAGE_EXT_RE, '').replace(/\/+$/, '');
  if (slug === '' || slug === '.') slug = 'index';
  const page = state.ctx.pageIndex[slug] ?? state.ctx.pageIndex[`${slug}/index`];
  if (page) return page.url + suffix;
  if (FILE_EXT_RE.test(rel) && !PAGE_EXT_RE.test(rel)) {
    warnAt(state, env, 'missing-asset', `File ${p} is not in the repository's assets`, p);
    return href;
  }
  const redirected = followRedirects(state.ctx, slug);
  if (redirected && 'url' in redirected) return redirected.url;
  const target = redirected ? state.ctx.pageIndex[redirected.slug] : undefined;
  if (target) return target.url + suffix;
  warnAt(state, env, 'broken-link', `Link ${href} points to a page that does not exist (${slug})`, href);
  return pageHref(slug) + suffix;
}

/** An image/media `src`: local files through the asset map; external ones kept with a warning. */
export function resolveAsset(raw: string, state: PageState, env: Env, kind = 'image'): string {
  const src = raw.trim();
  if (src === '') return src;
  if (/^https?:\/\//i.test(src) || src.startsWith('//')) {
    warnAt(state, env, `external-${kind}`, `External ${kind} ${src} will not load in an air-gapped site`, src);
    return src;
  }
  if (isDangerous(src)) {
    if (src.toLowerCase().startsWith('data:image/') && !src.toLowerCase().startsWith('data:image/svg')) return src;
    if (state.unsafeHtml) return src;
    warnAt(state, env, 'unsafe-link', `Removed a ${src.split(':')[0]}: source`, src.slice(0, 40));
    return '';
  }
  if (SCHEME_RE.test(src)) return src;
  const { path: p, suffix } = splitUrlSuffix(src);
  const url = state.ctx.assets[toSitePath(p, state.pageFile)];
  if (url !== undefined) return url + suffix;
  warnAt(state, env, 'missing-asset', `File ${p} is not in the repository's assets`, p);
  return src;
}
