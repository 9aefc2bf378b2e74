import fs from 'node:fs';
import path from 'node:path';
import { textDirection } from '../../renderer/layout/direction.js';
import { contentType } from '../site/mime.js';

/**
 * How the sign-in pages look like the site they guard: its name, language, brand colours,
 * appearance (light, dark or the reader's system) and logo, read from the served bundle's
 * `404.html` — one page every bundle has, written with the same chrome as every page. Read once
 * per served site version (the site object is replaced on each activation) and kept.
 *
 * Nothing is linked: under full authentication the theme's files and the logo are themselves
 * behind sign-in, so the colours go into the page's inline style and the logo in as a `data:` URL
 * (the site CSP allows both: `style-src 'unsafe-inline'`, `img-src data:`).
 */
export interface SiteLook {
  name: string;
  lang: string;
  dir?: 'rtl';
  brand: { primary: string; light: string; dark: string };
  /** docs.json `appearance.default`, and whether the reader may not switch (`strict`). */
  appearance: 'system' | 'light' | 'dark';
  strict: boolean;
  /** `data:` URLs of the light and dark logos; none: the name is shown. */
  logo?: { light: string; dark: string };
}

const DEFAULT_BRAND = { primary: '#0d9373', light: '#55d799', dark: '#0d9373' };
/** A logo bigger than this is not inlined into every sign-in page (the name shows instead). */
const MAX_LOGO_BYTES = 96 * 1024;
// As renderer/layout/colors.ts: only plain colour values reach an inline <style>.
const COLOR_VALUE = /^(#[0-9a-f]{3,8}|(rgb|rgba|hsl|hsla)\([0-9\s.,%/a-z-]+\)|[a-z]{3,20})$/i;
const LANG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

const cache = new WeakMap<object, SiteLook>();

/** The look of the site served from `site.root` (cached on the object), or the defaults with `fallbackName`. */
export function siteLook(site: { root: string } | undefined, fallbackName: string): SiteLook {
  if (!site) return defaults(fallbackName);
  let hit = cache.get(site);
  if (!hit) cache.set(site, (hit = readLook(site.root, fallbackName)));
  return hit;
}

function defaults(name: string): SiteLook {
  return { name, lang: 'en', brand: DEFAULT_BRAND, appearance: 'system', strict: false };
}

function readLook(root: string, fallbackName: string): SiteLook {
  let html: string;
  try {
    // The head and the top bar are all we read: the first 64 KB hold them.
    const fd = fs.openSync(path.join(root, '404.html'), 'r');
    try {
      const buf = Buffer.alloc(64 * 1024);
      html = buf.subarray(0, fs.readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return defaults(fallbackName);
  }
  const htmlTag = /<html\b[^>]*>/i.exec(html)?.[0] ?? '';
  const attr = (tag: string, name: string): string | undefined => {
    const m = new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag);
    return m ? decode(m[1]!) : undefined;
  };
  const lang = attr(htmlTag, 'lang');
  const appearance = attr(htmlTag, 'data-appearance');
  const look: SiteLook = {
    name: decode(/<meta property="og:site_name" content="([^"]*)"/.exec(html)?.[1] ?? '') || fallbackName,
    lang: lang && LANG.test(lang) ? lang : 'en',
    brand: { ...DEFAULT_BRAND },
    appearance: appearance === 'light' || appearance === 'dark' ? appearance : 'system',
    strict: attr(htmlTag, 'data-appearance-strict') === 'true',
  };
  const dir = textDirection(look.lang);
  if (dir) look.dir = dir;
  const brandStyle = /<style>(:root\{--brand:[^<]*)<\/style>/.exec(html)?.[1] ?? '';
  const color = (name: string) => {
    const v = new RegExp(`--${name}:([^;}]+)`).exec(brandStyle)?.[1]?.trim();
    return v && COLOR_VALUE.test(v) ? v : undefined;
  };
  const primary = color('brand');
  if (primary) look.brand = { primary, light: color('brand-light') ?? primary, dark: color('brand-dark') ?? primary };
  const logoSrc = (cls: string) => {
    const img = new RegExp(`<img class="logo ${cls}"[^>]*>`).exec(html)?.[0];
    return img ? attr(img, 'src') : undefined;
  };
  const light = inlineImage(root, logoSrc('logo-light'));
  const dark = inlineImage(root, logoSrc('logo-dark')) ?? light;
  if (light && dark) look.logo = { light, dark };
  return look;
}

/** A bundle file named by a site-absolute URL, as a `data:` URL; anything else (outside links, too big) undefined. */
function inlineImage(root: string, src: string | undefined): string | undefined {
  if (!src || !src.startsWith('/') || src.startsWith('//')) return undefined;
  let rel: string;
  try {
    rel = decodeURIComponent(src.split(/[?#]/)[0]!.slice(1));
  } catch {
    return undefined;
  }
  // Typed as the site listener serves the same file; only images are inlined.
  const type = contentType(rel);
  if (!type.startsWith('image/') || rel.split('/').some((s) => s === '..' || s === '')) return undefined;
  try {
    const abs = path.join(root, rel);
    const st = fs.lstatSync(abs);
    if (!st.isFile() || st.size > MAX_LOGO_BYTES) return undefined;
    return `data:${type};base64,${fs.readFileSync(abs).toString('base64')}`;
  } catch {
    return undefined;
  }
}

/** Attribute text as the templates escape it (ejs writes `&#34;`, `&#39;`, `&amp;`…); pages.ts escapes it again. */
function decode(s: string): string {
  return s.replace(/&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|(amp|lt|gt|quot|apos));/gi, (m, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name) return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[name.toLowerCase()] ?? m;
    const code = dec ? Number(dec) : parseInt(hex!, 16);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
  });
}
