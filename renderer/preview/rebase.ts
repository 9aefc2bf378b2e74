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

/** The preview's stand-in for the appliance's status (see QUIET_SCRIPT), as `asset()` serves it. */
export const QUIET_SCRIPT_PATH = '_preview/quiet.js';

/**
 * The site's scripts ask the site listener's `/_/assistant` whether they run on the appliance
 * (renderer/assets/client/site.js) before the assistant, page views, feedback and search
 * analytics talk to it. Inside the editor there is no site listener, and the sandboxed frame's
 * request would fail: this answers "not the appliance" first, so they stay quiet, as on any
 * other static host.
 */
export const QUIET_SCRIPT = 'window.docsApplianceStatus = Promise.resolve({ appliance: false, preview: true });\n';

/** Load QUIET_SCRIPT (served under `base`) before any of the page's own scripts. */
export function quietAppliance(html: string, base: string): string {
  const tag = `<script src="${base}${QUIET_SCRIPT_PATH}"></script>`;
  const head = /<head(?:\s[^>]*)?>/i.exec(html);
  if (!head) return tag + html;
  const at = head.index + head[0].length;
  return html.slice(0, at) + tag + html.slice(at);
}
