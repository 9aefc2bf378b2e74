/**
 * Icons by name from the library a site chose (docs.json `icons.library`: Font Awesome, the
 * default, Lucide or Tabler), inlined as SVG: the bundle carries only the icons its pages show.
 * Theme icons (callout kinds, file trees, footer socials) always come from Font Awesome.
 */
import { faShape, isProOnlyName, parseFaName } from './fontawesome.js';
import { substituteCandidates } from './pro-substitutes.js';
import { lucideShape, tablerShape } from './outline-sets.js';
import type { IconShape } from './svg-file.js';

export type IconLibrary = 'fontawesome' | 'lucide' | 'tabler';
export const ICON_LIBRARIES: readonly IconLibrary[] = ['fontawesome', 'lucide', 'tabler'];
const LIBRARY_NAMES: Record<IconLibrary, string> = { fontawesome: 'Font Awesome', lucide: 'Lucide', tabler: 'Tabler' };

export interface IconOptions {
  /** The site's library (default Font Awesome). */
  library?: IconLibrary | undefined;
  /** Mintlify's `iconType`: a Font Awesome style (`regular`, `brands`…), or `filled` for Tabler. */
  iconType?: string | undefined;
  className?: string | undefined;
  label?: string | undefined;
}

export interface IconProblem {
  code: 'unknown-icon' | 'pro-icon';
  message: string;
}

/** The SVG, or none; `problem` says what to warn about (a placeholder SVG may still come with it). */
export interface IconResult {
  svg?: string;
  problem?: IconProblem;
}

/** `icons.library` as written → a library, or undefined when it is not one Mintlify accepts. */
export function iconLibrary(value: unknown): IconLibrary | undefined {
  return typeof value === 'string' && (ICON_LIBRARIES as readonly string[]).includes(value) ? (value as IconLibrary) : undefined;
}

function escapeAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function a11y(label: string | undefined): string {
  return label ? `role="img" aria-label="${escapeAttr(label)}"` : 'aria-hidden="true" focusable="false"';
}

function svgFor(name: string, shape: IconShape, opts: IconOptions): string {
  const cls = `icon icon-${name}${opts.className ? ` ${opts.className}` : ''}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${shape.viewBox}" class="${escapeAttr(cls)}" ${shape.paint} ${a11y(opts.label)}>${shape.inner}</svg>`;
}

/**
 * Stands in for a Font Awesome Pro icon: a dashed rounded square on Font Awesome's 512-unit grid,
 * so the icon's box keeps its size and the layout around it does not move.
 */
function placeholderSvg(name: string, opts: IconOptions): string {
  const cls = `icon icon-placeholder${opts.className ? ` ${opts.className}` : ''}`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" class="${escapeAttr(cls)}" data-icon="${escapeAttr(name)}" ${a11y(opts.label)}>` +
    `<rect x="72" y="72" width="368" height="368" rx="80" fill="none" stroke="currentColor" stroke-width="40" stroke-dasharray="72 48" opacity=".5"/></svg>`
  );
}

function lookup(name: string, opts: IconOptions): IconResult {
  const library = opts.library ?? 'fontawesome';
  const found = library === 'lucide' ? lucideShape(name) : library === 'tabler' ? tablerShape(name, opts.iconType) : faShape(name, opts.iconType);
  if (found) return { svg: svgFor(found.name, found.shape, opts) };
  if (library === 'fontawesome' && isProOnlyName(name)) {
    for (const candidate of substituteCandidates(parseFaName(name, undefined)?.name ?? name)) {
      const free = faShape(candidate, opts.iconType);
      if (!free) continue;
      return {
        svg: svgFor(free.name, free.shape, { ...opts, className: `icon-substitute${opts.className ? ` ${opts.className}` : ''}` }).replace('<svg ', `<svg data-icon="${escapeAttr(name)}" `),
        problem: { code: 'pro-icon', message: `Icon "${name}" is a Font Awesome Pro icon; only the free set is bundled, so the free icon "${free.name}" is shown in its place` },
      };
    }
    return {
      svg: placeholderSvg(name, opts),
      problem: { code: 'pro-icon', message: `Icon "${name}" is a Font Awesome Pro icon; only the free set is bundled, so a placeholder of the same size is shown` },
    };
  }
  const hint = library === 'fontawesome' ? '' : ` (docs.json "icons.library" is "${library}")`;
  if (library !== 'fontawesome') {
    // Mintlify's own Lucide docs name Font Awesome brands (`js`, `python`): drawn from there, still named.
    const fa = faShape(name, opts.iconType);
    if (fa) return { svg: svgFor(fa.name, fa.shape, opts), problem: { code: 'unknown-icon', message: `Icon "${name}" is not a ${LIBRARY_NAMES[library]} icon${hint}; the Font Awesome icon of that name is shown` } };
  }
  return { problem: { code: 'unknown-icon', message: `Icon "${name}" is not a ${LIBRARY_NAMES[library]} icon${hint}; it is left out` } };
}

/** Finished results per (name, options): pages repeat the same few icons many times. */
const cache = new Map<string, IconResult>();
const CACHE_LIMIT = 4096;

export function renderIcon(name: string, opts: IconOptions = {}): IconResult {
  const key = `${name}\0${opts.library ?? ''}\0${opts.iconType ?? ''}\0${opts.className ?? ''}\0${opts.label ?? ''}`;
  let result = cache.get(key);
  if (!result) {
    result = lookup(name, opts);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, result);
  }
  return result;
}

/**
 * Inline SVG for a Font Awesome icon name (the theme's own icons), or undefined when the free set
 * lacks it. `library` here is a Font Awesome style word, as in Mintlify's `iconType`.
 */
export function iconSvg(name: string, opts: { library?: string; className?: string; label?: string } = {}): string | undefined {
  const result = renderIcon(name, { iconType: opts.library, className: opts.className, label: opts.label });
  return result.problem ? undefined : result.svg;
}
