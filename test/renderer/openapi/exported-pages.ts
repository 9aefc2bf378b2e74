import { beforeAll } from 'vitest';
import { stringify } from 'yaml';
import { exportSite, type ExportResult } from '../../../renderer/index.js';
import type { PlaygroundRequest } from '../../../renderer/openapi/playground.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';
import { tempSite } from '../load/site-fixtures.js';

/**
 * Readers of an export's pages by slug ('' is the home page): the page's HTML, and its visible
 * text (tags dropped, entities decoded, whitespace collapsed, no space before punctuation).
 * `result` is called on each read: suites export in `beforeAll`.
 */
export interface PageReaders {
  html: (slug: string) => string;
  text: (slug: string) => string;
  /** The cURL example of a page (its first request example), entities decoded. */
  curl: (slug: string) => string;
  /** The code of a page's (first) response example, as a reader copies it. */
  responseExample: (slug: string) => string;
  /** The playground's request description on a page (its data-request attribute). */
  playgroundOf: (slug: string) => PlaygroundRequest;
}

const decode = (s: string): string => s.replace(/&quot;/g, '"').replace(/&#39;|&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

export function pageReaders(result: () => ExportResult): PageReaders {
  const html = (slug: string): string => {
    const files = result().files;
    const bytes = files.get(slug === '' ? 'index.html' : `${slug}/index.html`);
    if (!bytes) throw new Error(`no page ${slug}; pages: ${[...files.keys()].filter((f) => f.endsWith('.html')).join(', ')}`);
    return new TextDecoder().decode(bytes);
  };
  const text = (slug: string): string =>
    html(slug)
      .replace(/<svg[\s\S]*?<\/svg>/g, '')
      .replace(/<[^>]+>/g, ' ')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;|&#x27;/g, "'")
      .replace(/&amp;/g, '&')
      .replace(/\s+/g, ' ')
      .replace(/ ([,.;)])/g, '$1');
  const curl = (slug: string): string => {
    const t = text(slug);
    return t.slice(t.indexOf('curl --request'), t.indexOf('import requests'));
  };
  const responseExample = (slug: string): string => {
    const page = html(slug);
    const panel = page.slice(page.indexOf('<aside class="c-example c-example--response"'));
    return decode((/<code[^>]*>([^]*?)<\/code>/.exec(panel)?.[1] ?? '').replace(/<[^>]+>/g, ''));
  };
  const playgroundOf = (slug: string): PlaygroundRequest => {
    const m = /data-request="([^"]*)"/.exec(html(slug));
    if (!m) throw new Error(`no playground on ${slug}`);
    return JSON.parse(decode(m[1] ?? '')) as PlaygroundRequest;
  };
  return { html, text, curl, responseExample, playgroundOf };
}

/**
 * The suite's export of a site made of `files` (in `beforeAll`, on the fork's shared render pool)
 * and readers of its pages; `result()` is the export itself.
 */
export function exportedSite(files: Record<string, string>): PageReaders & { result: () => ExportResult } {
  let exported: ExportResult | undefined;
  beforeAll(async () => {
    exported = await exportSite({ sourceDir: tempSite(files), pool: sharedRenderPool() });
  }, 60_000);
  const result = (): ExportResult => {
    if (!exported) throw new Error('the suite has not exported its site yet');
    return exported;
  };
  return { ...pageReaders(result), result };
}

/** A spec with a tab of its own: written at `source` (as YAML when the name says so), its pages generated into `directory`. */
export interface SpecTab {
  tab: string;
  source: string;
  directory: string;
  /** The document; none when `more` of specTabsSite holds its file (a spec split over files). */
  doc?: unknown;
  kind?: 'openapi' | 'asyncapi';
}

/**
 * The files of a sweep suite's site: a Guides tab with the home page, then one tab per spec, and
 * `more` files as they are.
 */
export function specTabsSite(name: string, tabs: readonly SpecTab[], more: Record<string, string> = {}): Record<string, string> {
  const navigation = { tabs: [{ tab: 'Guides', pages: ['index'] }, ...tabs.map((t) => ({ tab: t.tab, [t.kind ?? 'openapi']: { source: t.source, directory: t.directory } }))] };
  const files: Record<string, string> = { 'docs.json': JSON.stringify({ name, theme: 'mint', navigation }), 'index.mdx': '---\ntitle: Home\n---\nWelcome.\n' };
  for (const t of tabs) if (t.doc !== undefined) files[t.source] = /\.ya?ml$/.test(t.source) ? stringify(t.doc) : JSON.stringify(t.doc);
  return { ...files, ...more };
}
