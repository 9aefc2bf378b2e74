import { describe, expect, it } from 'vitest';
import { iconSvg } from '../../../renderer/icons.js';

describe('iconSvg', () => {
  it('returns an inline, decorative Font Awesome SVG for a plain name', () => {
    const svg = iconSvg('rocket');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 \d+ \d+" class="icon icon-rocket" fill="currentColor" aria-hidden="true" focusable="false"><path/);
    expect(svg).not.toContain('<!--');
    expect(svg).toMatch(/<\/svg>$/);
  });

  it("accepts Mintlify's forms: fa- prefixes, style words, a library option, brands", () => {
    expect(iconSvg('fa-solid fa-rocket')).toContain('icon-rocket');
    expect(iconSvg('brands github')).toContain('icon-github');
    expect(iconSvg('github')).toContain('icon-github');
    expect(iconSvg('fa-brands fa-github')).toContain('icon-github');
    expect(iconSvg('circle-check', { library: 'regular' })).not.toBe(iconSvg('circle-check', { library: 'solid' }));
    expect(iconSvg('duotone circle-check')).toContain('icon-circle-check');
    expect(iconSvg('external-link')).toContain('icon-external-link');
  });

  it('labels the icon when asked, and adds classes', () => {
    const svg = iconSvg('github', { label: 'GitHub "repo"', className: 'social' });
    expect(svg).toContain('role="img" aria-label="GitHub &quot;repo&quot;"');
    expect(svg).toContain('class="icon icon-github social"');
    expect(svg).not.toContain('aria-hidden');
  });

  it('returns undefined for unknown or unsafe names', () => {
    expect(iconSvg('definitely-not-an-icon')).toBeUndefined();
    expect(iconSvg('../../../etc/passwd')).toBeUndefined();
    expect(iconSvg('https://example.com/icon.svg')).toBeUndefined();
    expect(iconSvg('')).toBeUndefined();
  });
});
