import type { SiteConfig } from '../types.js';

const DEFAULT_PRIMARY = '#0d9373';

// Only plain colour values reach the inline <style>: anything else could close the element.
const COLOR_VALUE = /^(#[0-9a-f]{3,8}|(rgb|rgba|hsl|hsla)\([0-9\s.,%/a-z-]+\)|[a-z]{3,20})$/i;

function clean(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return COLOR_VALUE.test(trimmed) ? trimmed : undefined;
}

/**
 * The brand colours as custom properties. site.css maps them onto `--color-primary` per theme:
 * `primary` in light mode, `light` (the brighter variant, readable on dark grounds) in dark mode,
 * as Mintlify does.
 */
export function brandCss(colors: SiteConfig['colors']): string {
  const { primary, light, dark } = brandColors(colors);
  return `:root{--brand:${primary};--brand-light:${light};--brand-dark:${dark}}`;
}

/** The three brand colours with defaults filled in (also Tailwind's `primary` palette). */
export function brandColors(colors: SiteConfig['colors']): { primary: string; light: string; dark: string } {
  const primary = clean(colors.primary) ?? DEFAULT_PRIMARY;
  return { primary, light: clean(colors.light) ?? primary, dark: clean(colors.dark) ?? primary };
}
