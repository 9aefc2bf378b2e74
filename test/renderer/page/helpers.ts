/** Shared set-up for the page renderer tests: a RenderContext over a fixture repository. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderPageContent } from '../../../renderer/page/index.js';
import type { PageContent, RenderContext, SiteConfig } from '../../../renderer/types.js';

export const FIXTURE_SITE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/pages/site');

export function makeConfig(overrides: Partial<SiteConfig> = {}): SiteConfig {
  return {
    format: 'docs.json',
    name: 'Acme Docs',
    colors: { primary: '#0d9373' },
    appearance: { default: 'system', strict: false },
    navbar: { links: [] },
    footer: { socials: {}, links: [] },
    variables: { product: 'Acme', version: '3.1' },
    redirects: [],
    allowUnsafeHtml: false,
    customCss: [],
    customJs: [],
    navigation: [],
    ...overrides,
  };
}

export function makeCtx(overrides: Partial<RenderContext> = {}, config: Partial<SiteConfig> = {}): RenderContext {
  return {
    repoRoot: FIXTURE_SITE,
    config: makeConfig(config),
    sections: [],
    globalLinks: [],
    pageIndex: {
      index: { title: 'Home', url: '/' },
      'guides/intro': { title: 'Intro', url: '/guides/intro/' },
      'guides/setup': { title: 'Setup', url: '/guides/setup/' },
    },
    assets: { 'images/logo.png': '/_assets/logo.1a2b3c4d.png', 'files/manual.pdf': '/_assets/manual.9f8e7d6c.pdf' },
    themeAssets: {},
    ...overrides,
  };
}

export function render(source: string, opts: { file?: string; ctx?: RenderContext; lang?: string } = {}): PageContent {
  return renderPageContent({ file: opts.file ?? 'guides/page.mdx', source, ctx: opts.ctx ?? makeCtx(), ...(opts.lang ? { lang: opts.lang } : {}) });
}

/** The RenderError thrown by a render, for assertions on file/line/message. */
export function renderError(source: string, opts: { file?: string; ctx?: RenderContext } = {}): {
  file: string;
  line: number | undefined;
  message: string;
  name: string;
} {
  try {
    render(source, opts);
  } catch (err) {
    const e = err as { file: string; line: number | undefined; message: string; name: string };
    return { file: e.file, line: e.line, message: e.message, name: e.name };
  }
  throw new Error('expected the render to fail');
}

export function count(haystack: string, needle: string | RegExp): number {
  if (typeof needle === 'string') return haystack.split(needle).length - 1;
  return (haystack.match(new RegExp(needle.source, needle.flags.includes('g') ? needle.flags : `${needle.flags}g`)) ?? []).length;
}

export function codes(page: PageContent): string[] {
  return page.warnings.map((w) => w.code);
}
