/**
 * What the hosted platform adds to a docs site for AI tools (mintlify-docs ai/markdown-export.mdx
 * and ai/llmstxt.mdx), on the site listener:
 *
 * - a page URL asked for with `Accept: text/markdown` (or `text/plain`) preferred over HTML
 *   answers with the page's Markdown (`<page>.md`, written by the export), `Vary: Accept` on both;
 * - every page answer advertises llms.txt and llms-full.txt in a `Link` header and `X-Llms-Txt`;
 * - `/.well-known/llms.txt` and `/.well-known/llms-full.txt` serve the same files (lookupPath).
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { ServedSite, SiteFile } from './served-site.js';

const PAGE_TYPES = /^text\/(html|markdown)\b/;

/** `q` of a media range (`;q=0.5`), 1 when absent, 0 when unreadable. */
function quality(params: string[]): number {
  for (const p of params) {
    const [k, v] = p.split('=').map((s) => s.trim());
    if (k?.toLowerCase() === 'q') {
      const q = Number(v);
      return Number.isFinite(q) && q >= 0 && q <= 1 ? q : 0;
    }
  }
  return 1;
}

/**
 * Whether an Accept header prefers Markdown to HTML: the best `q` of `text/markdown` or
 * `text/plain` is above HTML's (`text/html`, else `text/*`, else `*\/*`; HTML wins a tie). A
 * browser's header names neither, so it gets HTML; so does a client that sends no Accept or `*\/*`.
 */
export function wantsMarkdown(accept: string | string[] | undefined): boolean {
  if (typeof accept !== 'string') return false;
  // Media types are case-insensitive; a browser's header names neither, and stops here.
  const header = accept.toLowerCase();
  if (!header.includes('text/markdown') && !header.includes('text/plain')) return false;
  let markdown = 0;
  let html: number | undefined;
  let textAny: number | undefined;
  let any: number | undefined;
  for (const range of header.split(',')) {
    const [type = '', ...params] = range.split(';');
    const t = type.trim();
    const q = quality(params);
    if (t === 'text/markdown' || t === 'text/plain') markdown = Math.max(markdown, q);
    else if (t === 'text/html') html = Math.max(html ?? 0, q);
    else if (t === 'text/*') textAny = Math.max(textAny ?? 0, q);
    else if (t === '*/*') any = Math.max(any ?? 0, q);
  }
  return markdown > 0 && markdown > (html ?? textAny ?? any ?? 0);
}

/** The Markdown of the page a lookup found (`guides/intro/index.html` → `guides/intro.md`), if the site has it. */
export function markdownOf(site: ServedSite, page: SiteFile): SiteFile | undefined {
  if (!page.type.startsWith('text/html')) return undefined;
  const rel = page.rel === 'index.html' ? 'index' : page.rel.replace(/(\/index)?\.html$/, '');
  return site.lookup(`${rel}.md`);
}

/**
 * The headers a file's answers carry besides the file's own: `Vary` (Accept too for pages and
 * their Markdown, since the same URL can answer with either) and, on pages, the llms.txt links.
 */
export function agentHeaders(site: ServedSite, file: SiteFile): OutgoingHttpHeaders {
  const page = PAGE_TYPES.test(file.type);
  const vary = page ? (file.compressible ? 'Accept, Accept-Encoding' : 'Accept') : file.compressible ? 'Accept-Encoding' : undefined;
  const out: OutgoingHttpHeaders = vary ? { vary } : {};
  if (!file.type.startsWith('text/html')) return out;
  const llms = site.lookup('llms.txt') !== undefined;
  const links: string[] = [];
  if (llms) links.push('</llms.txt>; rel="llms-txt"');
  if (site.lookup('llms-full.txt')) links.push('</llms-full.txt>; rel="llms-full-txt"');
  if (links.length > 0) out['link'] = links.join(', ');
  if (llms) out['x-llms-txt'] = '/llms.txt';
  return out;
}
