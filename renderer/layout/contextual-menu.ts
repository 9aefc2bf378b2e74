/**
 * The page menu of docs.json `contextual` (settings in load/contextual.ts): a split button whose
 * face is the first option and whose list holds them all, each with its title and description, as
 * the hosted page header shows it. Links work without JavaScript (View as Markdown, Download API
 * spec, custom links); Copy page and links that carry the page's Markdown (`$page`) need
 * contextual.js, which fetches `<page>.md`.
 *
 * The MCP options and "Ask assistant" need the appliance behind the page (its `/mcp` server, its
 * assistant): they are written hidden, and contextual.js shows them when the appliance's status
 * (`GET /_/assistant`) says they are there. On a static host that request fails and they stay
 * hidden. Their URLs are made on click from the page's own origin, so one bundle serves any host.
 */
import type { ContextualHref, ContextualOption, ContextualSettings, McpOption } from '../load/contextual.js';
import { chromeStrings, type ChromeStrings } from '../i18n/chrome-strings.js';
import { pageSpecFile } from '../openapi/page-spec-file.js';
import type { PlannedPage, RenderContext } from '../types.js';
import { escapeHtml, safeHref } from './escape.js';
import { layoutIcons } from './icon.js';

type Requirement = 'mcp' | 'assistant';

interface Item {
  title: string;
  description: string;
  icon: string;
  /** A link (`href`), or an action of contextual.js (`action`, with `template` for `$page`/`$mcp` links). */
  href?: string;
  action?: 'copy' | 'open' | 'assistant' | McpOption;
  template?: string;
  download?: boolean;
  external?: boolean;
  /** Shown only where the appliance serves the page and offers this. */
  requires?: Requirement;
}

/** Titles and descriptions as the hosted menu words them. */
const MCP_ITEMS: Record<McpOption, { title: string; description: string; icon: string }> = {
  mcp: { title: 'Copy MCP Server', description: 'Copy MCP Server URL to clipboard', icon: 'plug' },
  'add-mcp': { title: 'Copy MCP install command', description: 'Copy the npx add-mcp command to install the MCP Server', icon: 'terminal' },
  cursor: { title: 'Connect to Cursor', description: 'Install MCP Server on Cursor', icon: 'mouse-pointer' },
  vscode: { title: 'Connect to VS Code', description: 'Install MCP Server on VS Code', icon: 'code' },
};

const markdownUrl = (slug: string): string => `/${slug}.md`;
const pagePath = (slug: string): string => (slug === 'index' ? '/' : `/${slug}`);

/** A custom option's URL: `$path` filled here, `$page` left for the script (the page's Markdown). */
function customUrl(href: ContextualHref, slug: string): { url: string; needsPage: boolean } {
  if (typeof href === 'string') return { url: href.replaceAll('$path', pagePath(slug)), needsPage: href.includes('$page') };
  const params = new URLSearchParams();
  for (const q of href.query) params.append(q.key, q.value.replaceAll('$path', pagePath(slug)));
  const query = params.toString().replaceAll('%24page', '$page').replaceAll('%24mcp', '$mcp');
  const url = query ? `${href.base}${href.base.includes('?') ? '&' : '?'}${query}` : href.base;
  return { url, needsPage: url.includes('$page') };
}

function item(option: ContextualOption, page: PlannedPage, ctx: RenderContext, icon: (name: string) => string, strings: ChromeStrings): Item | undefined {
  switch (option.kind) {
    case 'copy':
      return { title: strings.copyPage, description: strings.copyPageHint, icon: icon('copy'), action: 'copy' };
    case 'view':
      return { title: strings.viewMarkdown, description: strings.viewMarkdownHint, icon: icon('markdown'), href: markdownUrl(page.slug) };
    case 'download-spec': {
      // Only on API pages, as on the hosted platform: the page's own spec, at its bundle path.
      const file = pageSpecFile(page.api);
      const url = file ? ctx.assets[file] : undefined;
      return url ? { title: strings.downloadSpec, description: strings.downloadSpecHint, icon: icon('download'), href: url, download: true } : undefined;
    }
    case 'assistant':
      return { title: strings.askAssistant, description: strings.askAssistantHint, icon: icon('wand-magic-sparkles'), action: 'assistant', requires: 'assistant' };
    case 'mcp': {
      const m = MCP_ITEMS[option.option];
      return { title: m.title, description: m.description, icon: icon(m.icon), action: option.option, requires: 'mcp' };
    }
    case 'custom': {
      const { url, needsPage } = customUrl(option.href, page.slug);
      const href = safeHref(url);
      // A scheme other than http(s), mailto or tel (javascript:…) is not linked.
      if (!href || href === '#') return undefined;
      // `$mcp` (the site's MCP server URL) is known only on the page: filled on click, like `$page`.
      const needsMcp = href.includes('$mcp');
      return {
        title: option.title,
        description: option.description,
        icon: option.icon ? icon(option.icon) : '',
        href,
        external: /^https?:/i.test(href),
        ...(needsPage || needsMcp ? { action: 'open' as const, template: href } : {}),
        ...(needsMcp ? { requires: 'mcp' as const } : {}),
      };
    }
  }
}

function link(i: Item, className: string, body: string): string {
  const target = i.external ? ' target="_blank" rel="noopener noreferrer"' : i.download ? ' download' : '';
  // An editor's install link: contextual.js gives it its href (cursor:…, vscode:…) once the page knows the server's URL.
  if (i.action === 'cursor' || i.action === 'vscode') return `<a class="${className}" data-contextual-install="${i.action}">${body}</a>`;
  if (i.action && i.action !== 'open') return `<button type="button" class="${className}" data-contextual-action="${i.action}">${body}</button>`;
  const open = i.action === 'open' ? ` data-contextual-action="open" data-href-template="${escapeHtml(i.template ?? '')}"` : '';
  return `<a class="${className}" href="${escapeHtml(i.href ?? '#')}"${target}${open}>${body}</a>`;
}

/** The menu for one page, or '' when the site has none (or none of its options applies here). */
export function contextualMenu(settings: ContextualSettings | undefined, page: PlannedPage, ctx: RenderContext, strings: ChromeStrings = chromeStrings('en')): string {
  if (!settings || settings.options.length === 0) return '';
  const draw = layoutIcons(ctx.config);
  const icon = (name: string) => draw(name, 'icon contextual-icon');
  const items = settings.options.flatMap((o) => item(o, page, ctx, icon, strings) ?? []);
  // The face is an option every host can offer; a menu of appliance-only options waits, hidden.
  const first = items.find((i) => !i.requires) ?? items[0];
  if (!first) return '';
  const requires = (i: Item): string => (i.requires ? ` hidden data-contextual-requires="${i.requires}"` : '');
  const face = link(first, 'contextual-face', `${first.icon}<span data-contextual-label>${escapeHtml(first.title)}</span>`);
  const list = items
    .map((i) => `<li${requires(i)}>${link(i, 'contextual-item', `${i.icon}<span class="contextual-text"><span class="contextual-title">${escapeHtml(i.title)}</span>${i.description ? `<span class="contextual-description">${escapeHtml(i.description)}</span>` : ''}</span>`)}</li>`)
    .join('');
  const more = items.length > 1 ? `<details class="contextual-more"><summary aria-label="${escapeHtml(strings.morePageActions)}"><svg class="icon" viewBox="0 0 16 16" aria-hidden="true"><path d="M4 6l4 4 4-4" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round" stroke-linejoin="round"/></svg></summary><ul class="contextual-list">${list}</ul></details>` : '';
  // The name an editor gives the MCP server, for the install links the page makes.
  const server = items.some((i) => i.requires === 'mcp') ? ` data-mcp-name="${escapeHtml(mcpName(ctx.config.name))}"` : '';
  return `<div class="contextual contextual-${settings.display}"${requires(first)} data-contextual data-md="${escapeHtml(markdownUrl(page.slug))}"${server}>${face}${more}<span class="contextual-status" data-contextual-status role="status" aria-live="polite"></span></div>`;
}

/** The server's name in an editor's MCP settings: the site's name, lowercase, words hyphenated. */
function mcpName(siteName: string | undefined): string {
  return (siteName ?? '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'docs';
}
