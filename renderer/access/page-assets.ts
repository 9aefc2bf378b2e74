import type { RenderContext } from '../types.js';

const assetUrlSets = new WeakMap<RenderContext, Set<string>>();
const URL_IN_ATTR = /(?:^|[\s"'(,=])(\/[^\s"'()<>?#,]+)/g;

/**
 * The repository assets a page's content references (images, downloads, videos), as bundle URLs:
 * what the page links to through the asset map (page/links.ts), read back from its rendered
 * content, so every component that resolves an asset is covered. Only with reader access on: an
 * asset only restricted pages use gets their requirement (renderer/access/bundle-access.ts). The
 * layout's own assets (logo, favicon) are the site's, not the page's, and stay public.
 */
export function referencedAssets(ctx: RenderContext, html: string): string[] {
  let urls = assetUrlSets.get(ctx);
  if (!urls) assetUrlSets.set(ctx, (urls = new Set(Object.values(ctx.assets))));
  const found = new Set<string>();
  for (const m of html.matchAll(URL_IN_ATTR)) {
    const url = m[1] as string;
    if (urls.has(url)) found.add(url);
  }
  return [...found];
}
