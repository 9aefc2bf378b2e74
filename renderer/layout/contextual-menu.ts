/**
 * The page menu of docs.json `contextual` (settings in load/contextual.ts): a split button whose
 * face is the first option and whose list holds them all, each with its title and description, as
 * the hosted page header shows it. Links work without JavaScript (View as Markdown, Download API
 * spec, custom links); Copy page and links that carry the page's Markdown (`$page`) need
 * contextual.js, which fetches `<page>.md`.
 */
import type { ContextualHref, ContextualOption, ContextualSettings } from '../load/contextual.js';
import { pageSpecFile } from '../openapi/page-spec-file.js';
import type { PlannedPage, RenderContext } from '../types.js';
import { escapeHtml, safeHref } from './escape.js';
import { layoutIcons } from './icon.js';

interface Item {
  title: string;
  description: string;
  icon: string;
  /** A link (`href`), or an action of contextual.js (`action`, with `template` for `$page` links). */
  href?: string;
  action?: 'copy' | 'open';
  template?: string;
  download?: boolean;
  external?: boolean;
}

const markdownUrl = (slug: string): string => `/${slug}.md`;
const pagePath = (slug: string): string => (slug === 'index' ? '/' : `/${slug}`);

/** A custom option's URL: `$path` filled here, `$page` left for the script (the page's Markdown). */
function customUrl(href: ContextualHref, slug: string): { url: string; needsPage: boolean } {
  if (typeof href === 'string') return { url: href.replaceAll('$path', pagePath(slug)), needsPage: href.includes('$page') };
  const params = new URLSearchParams();
  for (const q of href.query) params.append(q.key, q.value.replaceAll('$path', pagePath(slug)));
  const query = params.toString().replaceAll('%24page', '$page');
  const url = query ? `${href.base}${href.base.includes('?') ? '&' : '?'}${query}` : href.base;
  return { url, needsPage: url.includes('$page') };
}

function item(option: ContextualOption, page: PlannedPage, ctx: RenderContext, icon: (name: string) => string): Item | undefined {
  switch (option.kind) {
    case 'copy':
      return { title: 'Copy page', description: 'Copy page as Markdown for LLMs', icon: icon('copy'), action: 'copy' };
    case 'view':
      return { title: 'View as Markdown', description: 'View this page as plain text', icon: icon('markdown'), href: markdownUrl(page.slug) };
    case 'download-spec': {
      // Only on API pages, as on the hosted platform: the page's own spec, at its bundle path.
      const file = pageSpecFile(page.api);
      const url = file ? ctx.assets[file] : undefined;
      return url ? { title: 'Download API spec', description: 'Download the API specification this page is made from', icon: icon('download'), href: url, download: true } : undefined;
    }
    case 'custom': {
      const { url, needsPage } = customUrl(option.href, page.slug);
      const href = safeHref(url);
      // A scheme other than http(s), mailto or tel (javascript:…) is not linked.
      if (!href || href === '#') return undefined;
      return { title: option.title, description: option.description, icon: option.icon ? icon(option.icon) : '', href, external: /^https?:/i.test(href), ...(needsPage ? { action: 'open' as const, template: href } : {}) };
    }
  }
}

function link(i: Item, className: string, body: string): string {
  const target = i.external ? ' target="_blank" rel="noopener noreferrer"' : i.download ? ' download' : '';
  if (i.action === 'copy') return `<button type="button" class="${className}" data-contextual-action="copy">${body}</button>`;
  const open = i.action === 'open' ? ` data-contextual-action="open" data-href-template="${escapeHtml(i.template ?? '')}"` : '';
  return `<a class="${className}" href="${escapeHtml(i.href ?? '#')}"${target}${open}>${body}</a>`;
}

/** The menu for one page, or '' when the site has none (or none of its options applies here). */
export function contextualMenu(settings: ContextualSettings | undefined, page: PlannedPage, ctx: RenderContext): string {
  if (!settings || settings.options.length === 0) return '';
  const draw = layoutIcons(ctx.config);
  const icon = (name: string) => draw(name, 'icon contextual-icon');
  const items = settings.options.flatMap((o) => item(o, page, ctx, icon) ?? []);
  const first = items[0];
  if (!first) return '';
  const face = link(first, 'contextual-face', `${first.icon}<span data-contextual-label>${escapeHtml(first.title)}</span>`);
  const list = items
    .map((i) => `<li>${link(i, 'contextual-item', `${i.icon}<span class="contextual-text"><span class="contextual-title">${escapeHtml(i.title)}</span>${i.description ? `<span class="contextual-description">${escapeHtml(i.description)}</span>` : ''}</span>`)}</li>`)
    .join('');
  const more = items.length > 1 ? `<details class="contextual-more"><summary aria-label="More page actions"><svg class="icon" viewBox="0 0 16 16" aria-hidden="true"><path d="M4 6l4 4 4-4" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round"/></svg></summary><ul class="contextual-list">${list}</ul></details>` : '';
  return `<div class="contextual contextual-${settings.display}" data-contextual data-md="${escapeHtml(markdownUrl(page.slug))}">${face}${more}<span class="contextual-status" data-contextual-status role="status" aria-live="polite"></span></div>`;
}
