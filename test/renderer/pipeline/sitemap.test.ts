import { describe, expect, it } from 'vitest';
import { buildSitemap } from '../../../renderer/write/sitemap.js';
import type { PlannedPage } from '../../../renderer/types.js';

const page = (slug: string, hidden: boolean): PlannedPage => ({ slug, file: `${slug}.mdx`, outputPath: `${slug}.html`, hidden, breadcrumbs: [] }) as PlannedPage;
const locs = (xml: string): string[] => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1] as string);

describe('sitemap.xml', () => {
  const pages = [page('index', false), page('guides/intro', false), page('orphan', true)];

  it('lists the pages of the navigation only, by default and with seo.indexing "navigable"', () => {
    expect(locs(buildSitemap(pages, 'docs.acme.example'))).toEqual(['https://docs.acme.example/', 'https://docs.acme.example/guides/intro']);
    expect(locs(buildSitemap(pages, 'docs.acme.example', 'navigable'))).toEqual(['https://docs.acme.example/', 'https://docs.acme.example/guides/intro']);
  });

  it('adds the pages outside the navigation with seo.indexing "all"', () => {
    expect(locs(buildSitemap(pages, undefined, 'all'))).toEqual(['/', '/guides/intro', '/orphan']);
  });
});
