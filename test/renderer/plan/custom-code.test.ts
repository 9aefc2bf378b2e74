import { describe, expect, it } from 'vitest';
import { externalScriptWarning } from '../../../renderer/plan/custom-scripts.js';
import { localiseStylesheet, type StylesheetContext } from '../../../renderer/plan/custom-styles.js';

const ctx: StylesheetContext = {
  assetUrl: (p) => ({ 'images/bg.png': '/_assets/images/bg.1a2b3c4d.png', 'fonts/inter.woff2': '/_assets/fonts/inter.5e6f7a8b.woff2' })[p],
  stylesheets: new Set(['style.css', 'theme/extra.css']),
};

describe('custom stylesheets in the bundle', () => {
  it('points local url()s at the content-hashed assets, absolute or relative, keeping ?query and #hash', () => {
    const css = [
      'body { background: url("/images/bg.png") no-repeat; }',
      "@font-face { font-family: Inter; src: url('../fonts/inter.woff2?v=3#iefix') format('woff2'); }",
      '.hero { background-image: url(../images/bg.png); }',
    ].join('\n');
    const out = localiseStylesheet('theme/site.css', css, ctx);
    expect(out.css).toBe(
      [
        'body { background: url("/_assets/images/bg.1a2b3c4d.png") no-repeat; }',
        '@font-face { font-family: Inter; src: url("/_assets/fonts/inter.5e6f7a8b.woff2?v=3#iefix") format(\'woff2\'); }',
        '.hero { background-image: url("/_assets/images/bg.1a2b3c4d.png"); }',
      ].join('\n'),
    );
    expect(out.changed).toBe(true);
    expect(out.warnings).toEqual([]);
  });

  it('removes what would load from outside the bundle and says where', () => {
    const css = ['@import url("https://use.typekit.net/abc.css");', "@import '//fonts.example.com/x.css' screen;", 'h1 { font-family: x; }', 'b { background: url(https://cdn.example.com/a.png); }'].join('\n');
    const out = localiseStylesheet('style.css', css, ctx);
    expect(out.css).toBe(
      [
        '/* @import of https://use.typekit.net/abc.css removed by docs-appliance: outside the bundle */',
        '/* @import of //fonts.example.com/x.css removed by docs-appliance: outside the bundle */',
        'h1 { font-family: x; }',
        'b { background: url("data:,"); }',
      ].join('\n'),
    );
    expect(out.warnings.map((w) => [w.code, w.file, w.line])).toEqual([
      ['external-style', 'style.css', 1],
      ['external-style', 'style.css', 2],
      ['external-style', 'style.css', 4],
    ]);
    expect(out.warnings[0]?.message).toBe(
      '@import of https://use.typekit.net/abc.css is removed: the exported site loads nothing from outside the bundle (copy the stylesheet into the repository instead)',
    );
    expect(out.warnings[2]?.message).toMatch(/^url\(https:\/\/cdn\.example\.com\/a\.png\) is replaced by an empty URL/);
  });

  it('drops an @import of another stylesheet of the repository (already loaded on every page) and keeps line numbers across a multi-line rule', () => {
    const css = '@import url(\n  "./theme/extra.css"\n);\na { background: url(/missing.png); }';
    const out = localiseStylesheet('style.css', css, ctx);
    expect(out.css).toBe('/* @import of ./theme/extra.css removed by docs-appliance: every stylesheet of the repository is loaded on every page */\n\n\na { background: url(/missing.png); }');
    expect(out.warnings).toEqual([{ code: 'missing-asset', message: 'url(/missing.png) is not a file of the repository; it will not load', file: 'style.css', line: 4 }]);
  });

  it('leaves data: URLs, fragments, other @imports and paths leaving the repository alone', () => {
    const css = 'a { mask: url(#clip); background: url("data:image/svg+xml,%3Csvg%3E"); }\n@import "snippets/not-loaded.css";\nb { background: url(../../outside.png); }';
    const out = localiseStylesheet('style.css', css, ctx);
    expect(out.css).toBe(css);
    expect(out.changed).toBe(false);
    expect(out.warnings.map((w) => [w.code, w.line])).toEqual([['missing-asset', 3]]);
  });
});

describe('custom scripts in the bundle', () => {
  it('names the hosts a script would load from, in one warning at the first one', () => {
    const js = [
      '// see https://docs.example.com/widget for the options (a comment still counts: the author should know)',
      'const s = document.createElement("script");',
      's.src = "https://widget.kapa.ai/kapa-widget.bundle.js";',
      "fetch('//api.example.com/v1/x'); fetch('https://a.example.com'); fetch('https://b.example.com');",
    ].join('\n');
    expect(externalScriptWarning('kapa-widget.js', js)).toEqual({
      code: 'external-script',
      message:
        "This script refers to https://docs.example.com/widget, https://widget.kapa.ai/kapa-widget.bundle.js, //api.example.com/v1/x and 2 more: whatever it loads from there will not load in an air-gapped site (the appliance's Content-Security-Policy blocks it)",
      file: 'kapa-widget.js',
      line: 1,
    });
  });

  it('says nothing about a script that stays inside the bundle, and does not take a // comment for a URL', () => {
    expect(externalScriptWarning('local.js', 'fetch("/_search/index.json"); // comment.example.com\nconst a = 1 // b.example.org')).toBeUndefined();
    // XML namespace names are identifiers, not addresses.
    expect(externalScriptWarning('icons.js', 'document.createElementNS("http://www.w3.org/2000/svg", "svg");')).toBeUndefined();
  });
});
