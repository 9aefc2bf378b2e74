import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSite, loadSite, planSite, type RenderPool } from '../../../renderer/index.js';
import { tempSite } from '../load/site-fixtures.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';

const docsJson = (library: string | undefined): string =>
  JSON.stringify(
    {
      name: 'Icons',
      ...(library ? { icons: { library } } : {}),
      navbar: { links: [{ label: 'Blog', href: 'https://example.com', icon: 'newspaper' }] },
      navigation: {
        tabs: [
          {
            tab: 'Guides',
            icon: 'book-open',
            groups: [
              { group: 'Start', icon: 'rocket', pages: ['index'] },
              { group: 'More', icon: 'no-such-group-icon', pages: ['other'] },
            ],
          },
        ],
      },
    },
    null,
    2,
  );

const pages = {
  'index.mdx': '---\ntitle: Home\nicon: house\n---\n\n# Home\n',
  'other.mdx': '---\ntitle: Other\nicon: no-such-page-icon\n---\n\n# Other\n',
};

const planWarnings = (files: Record<string, string>) => planSite(loadSite(tempSite(files))).warnings.filter((w) => /icon/.test(w.code));

describe('navigation icons', () => {
  let pool: RenderPool;
  beforeAll(() => {
    pool = sharedRenderPool(1);
  });
  afterAll(async () => {
    await pool.close();
  });

  it('draws tab, group and page icons from the site library in the sidebar and tabs', async () => {
    const r = await exportSite({ sourceDir: tempSite({ 'docs.json': docsJson('lucide'), ...pages }), pool });
    const html = new TextDecoder().decode(r.files.get('index.html'));
    for (const name of ['book-open', 'rocket', 'house', 'newspaper']) {
      expect(html, name).toMatch(new RegExp(`<svg [^>]*class="icon icon-${name}[^"]*" fill="none" stroke="currentColor"`));
    }
  });

  it('names each unknown one once for the site, with the config line or the page frontmatter line', () => {
    expect(planWarnings({ 'docs.json': docsJson('lucide'), ...pages })).toEqual([
      { code: 'unknown-icon', file: 'docs.json', line: 30, message: expect.stringContaining('"no-such-group-icon" is not a Lucide icon') },
      { code: 'unknown-icon', file: 'other.mdx', line: 3, message: expect.stringContaining('"no-such-page-icon" is not a Lucide icon') },
    ]);
  });

  it('checks against Font Awesome by default: Pro-only names get their own warning', () => {
    const warnings = planWarnings({ 'docs.json': docsJson(undefined).replace('"newspaper"', '"sparkles"'), ...pages });
    expect(warnings.map((w) => [w.code, w.file, /"([a-z-]+)"/.exec(w.message)?.[1]])).toEqual([
      ['unknown-icon', 'docs.json', 'no-such-group-icon'],
      ['unknown-icon', 'other.mdx', 'no-such-page-icon'],
      ['pro-icon', 'docs.json', 'sparkles'],
    ]);
  });

  it('warns about a library Mintlify does not accept and uses Font Awesome', () => {
    const warnings = planWarnings({ 'docs.json': docsJson('heroicons'), ...pages });
    expect(warnings[0]).toEqual({ code: 'unknown-icon-library', file: 'docs.json', line: 4, message: expect.stringContaining('"heroicons"') });
  });
});
