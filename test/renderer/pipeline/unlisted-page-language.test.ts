/**
 * A page the navigation does not list (reachable by URL only) speaks the language its path names
 * when the first segment is one of the site's navigation languages (`es/extra.mdx` on a site with
 * `es`), its chrome and its content words alike; any other such page speaks the site's first
 * language, not always English (issue 39, class 8).
 */
import { describe, expect, it } from 'vitest';
import { exportSite } from '../../../renderer/index.js';
import { tempSite } from '../load/site-fixtures.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';

const page = '---\ntitle: Page\n---\n\n<Warning>Careful.</Warning>\n';

async function site(codes: string[], extra: string[]): Promise<(p: string) => string> {
  const files: Record<string, string> = {
    'docs.json': JSON.stringify({ name: 'x', navigation: { languages: codes.map((c) => ({ language: c, pages: [`${c}/guide`] })) } }),
  };
  for (const c of codes) files[`${c}/guide.mdx`] = page;
  for (const f of extra) files[f] = page;
  const result = await exportSite({ sourceDir: tempSite(files), pool: sharedRenderPool() });
  return (p) => new TextDecoder().decode(result.files.get(p));
}

const lang = (html: string): string | undefined => /<html lang="([^"]+)"/.exec(html)?.[1];

describe('the language of a page outside the navigation', () => {
  it('is the navigation language its path starts with', async () => {
    const html = await site(['en', 'es'], ['es/api-reference/extra.mdx', 'es/index.mdx', 'en/extra.mdx', 'esx/extra.mdx', 'loose.mdx']);
    const es = html('es/api-reference/extra/index.html');
    expect(lang(es)).toBe('es');
    expect(es).toContain('aria-label="Advertencia"');
    // The Spanish chrome: the search button and the language switcher's current entry.
    expect(es).toContain('<span class="search-button-text">Buscar...</span>');
    expect(es).toContain('<span class="switcher-title">español</span>');
    expect(lang(html('es/index.html'))).toBe('es');
    for (const p of ['en/extra/index.html', 'esx/extra/index.html', 'loose/index.html']) {
      expect(lang(html(p)), p).toBe('en');
      expect(html(p), p).toContain('aria-label="Warning"');
    }
  });

  it('is otherwise the site\'s first language, for its content words too', async () => {
    const html = await site(['ja', 'en'], ['loose.mdx', 'en/extra.mdx']);
    const loose = html('loose/index.html');
    expect(lang(loose)).toBe('ja');
    expect(loose).toContain('aria-label="警告"');
    expect(lang(html('en/extra/index.html'))).toBe('en');
    expect(html('en/extra/index.html')).toContain('aria-label="Warning"');
  });
});
