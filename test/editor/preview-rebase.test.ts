import { describe, expect, it } from 'vitest';
import { rebaseCss, rebaseHtml } from '../../renderer/preview/rebase.js';
import { errorBanner, forceAppearance } from '../../app/editor/preview-page.js';

const BASE = '/e/preview-assets/';

describe('preview URL rebasing', () => {
  it('moves root-absolute links, sources and srcsets under the base, and nothing else', () => {
    const html = [
      '<a href="/guides/intro/">x</a>',
      '<img src="/_assets/a.png" srcset="/_assets/a.png 1x, /_assets/a@2x.png 2x">',
      '<script src="/_static/site.js" data-search="/_search/"></script>',
      '<a href="https://example.com/x">out</a><a href="//cdn.example/x">proto</a><a href="#top">top</a><a href="rel/x">rel</a>',
      '<div style="background:url(/_assets/bg.png)"></div>',
    ].join('');
    expect(rebaseHtml(html, BASE)).toBe(
      [
        '<a href="/e/preview-assets/guides/intro/">x</a>',
        '<img src="/e/preview-assets/_assets/a.png" srcset="/e/preview-assets/_assets/a.png 1x, /e/preview-assets/_assets/a@2x.png 2x">',
        '<script src="/e/preview-assets/_static/site.js" data-search="/e/preview-assets/_search/"></script>',
        '<a href="https://example.com/x">out</a><a href="//cdn.example/x">proto</a><a href="#top">top</a><a href="rel/x">rel</a>',
        '<div style="background:url(/e/preview-assets/_assets/bg.png)"></div>',
      ].join(''),
    );
  });

  it('makes a stylesheet’s root-absolute urls relative to where it is served', () => {
    const css = '@font-face{src:url(/_static/katex/fonts/a.woff2)} .x{background:url("/_assets/b.png")} .y{background:url(data:image/png;base64,AA)}';
    expect(rebaseCss(css, '_static/katex.123.css')).toBe(
      '@font-face{src:url(../_static/katex/fonts/a.woff2)} .x{background:url("../_assets/b.png")} .y{background:url(data:image/png;base64,AA)}',
    );
    expect(rebaseCss('a{b:url(/x.png)}', 'top.css')).toBe('a{b:url(./x.png)}');
  });

  it('puts the banner after <body> with escaped messages, and the forced theme first in <html>', () => {
    const page = '<!doctype html><html lang="en" data-appearance="system" data-strings=\'{"a":"x > y"}\'><body class="b"><main>m</main></body></html>';
    const banner = errorBanner(page, [{ file: 'a.mdx', line: 3, column: 5, message: 'Unclosed <Card>' }]);
    expect(banner).toContain('<body class="b"><div role="alert"');
    expect(banner).toContain('<strong>a.mdx:3:5</strong>: Unclosed &lt;Card&gt;');
    expect(forceAppearance(page, true)).toMatch(/^<!doctype html><html data-theme="dark" data-appearance="dark" data-appearance-strict="true" lang="en"/);
    expect(forceAppearance(page, undefined)).toBe(page);
  });
});
