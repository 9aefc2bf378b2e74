import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderDocument, renderNotFoundPage } from '../../../renderer/layout/index.js';
import { loadSite } from '../../../renderer/load/index.js';
import { renderPageContent } from '../../../renderer/page/index.js';
import { planSite } from '../../../renderer/plan/index.js';
import { canonicalPath, pageHref } from '../../../renderer/page-urls.js';
import { loadThemeAssets } from '../../../renderer/theme/assets.js';
import type { RenderContext } from '../../../renderer/types.js';

/** The docs that ship with the product must render cleanly with every part of the renderer. */
describe('example-docs', () => {
  const root = path.resolve(import.meta.dirname, '../../../example-docs');
  const plan = planSite(loadSite(root));
  const themeAssets: Record<string, string> = {};
  for (const a of loadThemeAssets()) themeAssets[a.name] = '/' + a.bundlePath;
  const pageIndex: RenderContext['pageIndex'] = {};
  for (const p of plan.pages) {
    pageIndex[p.slug] = { title: plan.pageTitles?.[p.slug] ?? p.slug, url: pageHref(p.slug), ...(p.sectionId ? { sectionId: p.sectionId } : {}) };
  }
  const assets: Record<string, string> = {};
  for (const [file, bundlePath] of Object.entries(plan.assets)) assets[file] = '/' + bundlePath;
  const ctx: RenderContext = { repoRoot: plan.repoRoot, config: plan.config, sections: plan.sections, globalLinks: plan.globalLinks, pageIndex, assets, themeAssets };

  const rendered = plan.pages.map((page) => {
    const content = renderPageContent({ file: page.file, source: fs.readFileSync(path.join(root, page.file), 'utf8'), ctx });
    return { page, content, html: renderDocument({ page, content, ctx }) };
  });

  it('is a two-tab docs.json site with redirects, a logo pair and a favicon', () => {
    expect(plan.config.name).toBe('docs-appliance');
    expect(plan.sections.filter((s) => s.trail[0]?.kind === 'tab').map((s) => s.trail[0]!.title)).toEqual(['Guides', 'API reference']);
    expect(plan.redirects.length).toBeGreaterThanOrEqual(2);
    expect(plan.pages.length).toBeGreaterThanOrEqual(10);
    expect(plan.warnings).toEqual([]);
    for (const file of [plan.config.logo?.light, plan.config.logo?.dark, plan.config.favicon]) expect(assets[file!], file).toMatch(/^\/_assets\//);
  });

  it('renders every page without a warning, each marked in its sidebar', () => {
    for (const { page, content, html } of rendered) {
      expect(content.warnings, page.file).toEqual([]);
      expect(html, page.file).toContain(`<link rel="canonical" href="${canonicalPath(page.slug)}">`);
      if (!page.hidden) expect(html.match(/aria-current="page"/g), page.file).toHaveLength(1);
    }
  });

  it('uses math and diagrams on the components page only where needed, and examples on API pages', () => {
    const components = rendered.find((r) => r.page.slug === 'guides/components')!;
    expect(components.content.usesMath && components.content.usesMermaid).toBe(true);
    expect(components.html).toContain(themeAssets['katex.css']);
    expect(components.html).toContain(themeAssets['mermaid.js']);
    const quickstart = rendered.find((r) => r.page.slug === 'quickstart')!;
    expect(quickstart.html).not.toContain('katex');
    const createJob = rendered.find((r) => r.page.slug === 'api-reference/agent/create-job')!;
    expect(createJob.html).toContain('class="examples-panel"');
    expect(createJob.html).toMatch(/<a href="\/api-reference\/agent\/create-job\/" aria-current="page">.*method-post/);
  });

  it('has a 404 page in the same chrome', () => {
    const html = renderNotFoundPage(ctx);
    expect(html).toContain('docs-appliance');
    expect(html).toContain('id="search-dialog"');
  });
});
