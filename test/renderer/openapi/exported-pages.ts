import type { ExportResult } from '../../../renderer/index.js';

/**
 * Readers of an export's pages by slug ('' is the home page): the page's HTML, and its visible
 * text (tags dropped, entities decoded, whitespace collapsed, no space before punctuation).
 * `result` is called on each read: suites export in `beforeAll`.
 */
export function pageReaders(result: () => ExportResult): { html: (slug: string) => string; text: (slug: string) => string } {
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
  return { html, text };
}
