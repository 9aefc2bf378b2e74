/**
 * The exported site links root-absolute (`/_static/site.css`, `/guides/intro/`): a bundle is
 * served at the root of its host (renderer/page-urls.ts). The preview is shown inside the console,
 * under `<editor>/preview-assets/`, so its URLs are moved under that base here, after rendering,
 * leaving the renderer itself as the export runs it.
 */

const ATTR_RE = /(\s(?:href|src|poster|action|data-[\w-]+)=)(["'])\/(?!\/)/g;
const SRCSET_RE = /(\ssrcset=)(["'])([^"']*)\2/g;
const CSS_URL_RE = /url\((\s*["']?)\/(?!\/)/g;

/** `base` ends with `/`: `/console/orgs/o/projects/p/editor/preview-assets/`. */
export function rebaseHtml(html: string, base: string): string {
  return html
    .replace(ATTR_RE, (_m, attr: string, q: string) => `${attr}${q}${base}`)
    .replace(SRCSET_RE, (_m, attr: string, q: string, list: string) => `${attr}${q}${list.split(',').map((c) => c.replace(/^(\s*)\/(?!\/)/, `$1${base}`)).join(',')}${q}`)
    .replace(CSS_URL_RE, (_m, open: string) => `url(${open}${base}`);
}

/**
 * A stylesheet's root-absolute `url(/…)`s made relative to where the stylesheet itself is served
 * (`_static/site.css` → `../x`): right under any base, so the asset needs no knowledge of it.
 */
export function rebaseCss(css: string, assetPath: string): string {
  const depth = assetPath.split('/').length - 1;
  const up = depth === 0 ? './' : '../'.repeat(depth);
  return css.replace(CSS_URL_RE, (_m, open: string) => `url(${open}${up}`);
}
