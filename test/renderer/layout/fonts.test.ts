import { describe, expect, it } from 'vitest';
import { fontCss } from '../../../renderer/layout/fonts.js';

const assets: Record<string, string> = { 'fonts/inter.ttf': '/_assets/fonts/inter.1a2b3c4d.ttf', 'fonts/mono.woff': '/_assets/fonts/mono.5e6f7a8b.woff' };
const assetUrl = (p: string): string | undefined => assets[p];

describe('fonts (docs.json)', () => {
  it('declares a repository font file once and sets the body and heading families in front of the theme stack', () => {
    const spec = { family: 'Inter', weight: 500, source: '/fonts/inter.ttf' };
    expect(fontCss({ body: spec, heading: spec }, assetUrl)).toBe(
      '@font-face{font-family:"Inter";src:url("/_assets/fonts/inter.1a2b3c4d.ttf") format("truetype");font-weight:500;font-display:swap}' +
        ':root{--font-sans:"Inter",var(--font-system);--font-heading:"Inter",var(--font-sans)}',
    );
  });

  it('takes the declared format, and names a family with no loadable file without a @font-face', () => {
    expect(fontCss({ heading: { family: 'Mono Display', source: 'fonts/mono.woff', format: 'woff' } }, assetUrl)).toBe(
      '@font-face{font-family:"Mono Display";src:url("/_assets/fonts/mono.5e6f7a8b.woff") format("woff");font-display:swap}:root{--font-heading:"Mono Display",var(--font-sans)}',
    );
    expect(fontCss({ body: { family: 'Open Sans', source: 'https://fonts.example.com/open-sans.woff2' } }, assetUrl)).toBe(':root{--font-sans:"Open Sans",var(--font-system)}');
    expect(fontCss({ body: { family: 'Gone', source: 'fonts/missing.woff2' } }, assetUrl)).toBe(':root{--font-sans:"Gone",var(--font-system)}');
    expect(fontCss(undefined, assetUrl)).toBe('');
  });

  it('drops a family name that could break out of the style element or the CSS string', () => {
    for (const family of ['Evil"}body{display:none', 'x</style><script>alert(1)</script>', 'a;b', '']) {
      expect(fontCss({ body: { family } }, assetUrl)).toBe('');
    }
  });
});
