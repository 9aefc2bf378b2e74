import { RenderError, type NavLink, type SiteConfig } from '../types.js';

/** Small readers for loosely typed config JSON: each names the field when the shape is wrong. */
export type Json = Record<string, unknown>;

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

export function expectObject(v: unknown, field: string, file: string): Json | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw new RenderError(`"${field}" must be an object`, { file });
  return v;
}

export function expectArray(v: unknown, field: string, file: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new RenderError(`"${field}" must be an array`, { file });
  return v;
}

/** Config asset paths are site-absolute (`/logo/dark.svg`); the plan keys assets repository-relative. */
export function assetPath(v: unknown): string | undefined {
  const s = str(v);
  if (s === undefined) return undefined;
  if (/^(https?:)?\/\//i.test(s) || s.startsWith('data:')) return s;
  return s.replace(/^\.?\/+/, '');
}

export function logo(v: unknown): SiteConfig['logo'] {
  if (typeof v === 'string') {
    const p = assetPath(v);
    return p === undefined ? undefined : { light: p, dark: p };
  }
  if (!isObject(v)) return undefined;
  const light = assetPath(v['light']);
  const dark = assetPath(v['dark']) ?? light;
  const out: NonNullable<SiteConfig['logo']> = {};
  if (light ?? dark) out.light = light ?? dark;
  if (dark) out.dark = dark;
  const href = str(v['href']);
  if (href) out.href = href;
  return out;
}

export function favicon(v: unknown): string | undefined {
  if (isObject(v)) return assetPath(v['light']) ?? assetPath(v['dark']);
  return assetPath(v);
}

export function colors(v: unknown, file: string): SiteConfig['colors'] {
  const c = expectObject(v, 'colors', file) ?? {};
  const primary = str(c['primary']) ?? '#16A34A';
  const out: SiteConfig['colors'] = { primary };
  const light = str(c['light']);
  const dark = str(c['dark']);
  if (light) out.light = light;
  if (dark) out.dark = dark;
  return out;
}

/** `{label|name, href|url, icon}` → NavLink; entries without a target are dropped. */
export function navLink(v: unknown): NavLink | undefined {
  if (!isObject(v)) return undefined;
  const href = str(v['href']) ?? str(v['url']);
  const label = str(v['label']) ?? str(v['name']) ?? str(v['title']) ?? str(v['anchor']) ?? str(v['tab']);
  if (href === undefined) return undefined;
  const link: NavLink = { label: label ?? href, href };
  const icon = str(v['icon']);
  if (icon) link.icon = icon;
  return link;
}

export function navLinks(v: unknown, field: string, file: string): NavLink[] {
  return expectArray(v, field, file)
    .map(navLink)
    .filter((l): l is NavLink => l !== undefined);
}

export function redirects(v: unknown, file: string): SiteConfig['redirects'] {
  return expectArray(v, 'redirects', file).flatMap((r, i) => {
    if (!isObject(r)) throw new RenderError(`"redirects[${i}]" must be an object`, { file });
    const source = str(r['source']);
    const destination = str(r['destination']);
    if (!source || !destination) {
      throw new RenderError(`"redirects[${i}]" needs "source" and "destination"`, { file });
    }
    return [{ source, destination, permanent: r['permanent'] !== false }];
  });
}

export function variables(v: unknown, file: string): Record<string, string> {
  const o = expectObject(v, 'variables', file) ?? {};
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(o)) {
    if (typeof val === 'string' || typeof val === 'number' || typeof val === 'boolean') out[k] = String(val);
    else throw new RenderError(`"variables.${k}" must be a string`, { file });
  }
  return out;
}

export function appearance(v: unknown): SiteConfig['appearance'] {
  const o = isObject(v) ? v : {};
  const d = o['default'];
  return {
    default: d === 'light' || d === 'dark' ? d : 'system',
    strict: o['strict'] === true,
  };
}
