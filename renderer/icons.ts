/**
 * Font Awesome icons as inline SVG, read from the installed @fortawesome/fontawesome-free package
 * at build time, so an exported site never loads an icon font or a remote icon.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** Where the package keeps one SVG file per icon and style (aliases have their own files too). */
const svgRoot = path.join(path.dirname(require.resolve('@fortawesome/fontawesome-free/package.json')), 'svgs');

const STYLES = ['solid', 'regular', 'brands'] as const;
type Style = (typeof STYLES)[number];

/** Words Mintlify and Font Awesome accept as a style; styles the free package lacks fall back to solid. */
const STYLE_WORDS: Record<string, Style> = {
  solid: 'solid',
  fas: 'solid',
  regular: 'regular',
  far: 'regular',
  brands: 'brands',
  brand: 'brands',
  fab: 'brands',
  light: 'solid',
  fal: 'solid',
  thin: 'solid',
  fat: 'solid',
  duotone: 'solid',
  fad: 'solid',
  sharp: 'solid',
  'sharp-solid': 'solid',
  classic: 'solid',
};

/** The `<svg …>` opening tag is rebuilt; only the viewBox and the inner paths are kept from the file. */
interface IconShape {
  viewBox: string;
  inner: string;
}

/** Per-process cache of file reads; `null` remembers that a file does not exist. */
const shapeCache = new Map<string, IconShape | null>();

const NAME_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const VIEWBOX_RE = /viewBox="([^"]+)"/;
const INNER_RE = /<svg[^>]*>([\s\S]*)<\/svg>/;
const COMMENT_RE = /<!--[\s\S]*?-->/g;

function readShape(style: Style, name: string): IconShape | null {
  const key = `${style}/${name}`;
  const cached = shapeCache.get(key);
  if (cached !== undefined) return cached;
  let shape: IconShape | null = null;
  try {
    const raw = fs.readFileSync(path.join(svgRoot, style, `${name}.svg`), 'utf8');
    const viewBox = VIEWBOX_RE.exec(raw)?.[1];
    const inner = INNER_RE.exec(raw)?.[1];
    if (viewBox && inner !== undefined) shape = { viewBox, inner: inner.replace(COMMENT_RE, '') };
  } catch {
    shape = null;
  }
  shapeCache.set(key, shape);
  return shape;
}

/** Splits `fa-solid fa-rocket`, `brands github`, `rocket` into a style preference and a name. */
function parseIconName(raw: string, library: string | undefined): { style?: Style; name: string } | undefined {
  let style: Style | undefined = library ? STYLE_WORDS[library.toLowerCase()] : undefined;
  let name: string | undefined;
  for (const word of raw.trim().toLowerCase().split(/\s+/)) {
    const bare = word.startsWith('fa-') ? word.slice(3) : word;
    const asStyle = STYLE_WORDS[bare] ?? STYLE_WORDS[word];
    if (asStyle && (name !== undefined || raw.trim().includes(' '))) {
      style = asStyle;
      continue;
    }
    name = bare;
  }
  if (!name || !NAME_RE.test(name)) return undefined;
  return style ? { style, name } : { name };
}

function escapeAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Inline SVG for a Font Awesome icon name, or undefined when the name is unknown (the caller then
 * falls back: an image for a URL or path, or nothing). Decorative (`aria-hidden`) unless labelled.
 */
export function iconSvg(name: string, opts: { library?: string; className?: string; label?: string } = {}): string | undefined {
  const key = `${name}\0${opts.library ?? ''}\0${opts.className ?? ''}\0${opts.label ?? ''}`;
  if (svgCache.has(key)) return svgCache.get(key);
  const svg = buildSvg(name, opts);
  if (svgCache.size >= SVG_CACHE_LIMIT) svgCache.clear();
  svgCache.set(key, svg);
  return svg;
}

/** Finished markup per (name, options): pages repeat the same few icons many times. */
const svgCache = new Map<string, string | undefined>();
const SVG_CACHE_LIMIT = 4096;

function buildSvg(name: string, opts: { library?: string; className?: string; label?: string }): string | undefined {
  const parsed = parseIconName(name, opts.library);
  if (!parsed) return undefined;
  const order: Style[] = parsed.style ? [parsed.style, ...STYLES.filter((s) => s !== parsed.style)] : [...STYLES];
  let shape: IconShape | null = null;
  for (const style of order) {
    shape = readShape(style, parsed.name);
    if (shape) break;
  }
  if (!shape) return undefined;
  const cls = `icon icon-${parsed.name}${opts.className ? ` ${opts.className}` : ''}`;
  const a11y = opts.label ? `role="img" aria-label="${escapeAttr(opts.label)}"` : 'aria-hidden="true" focusable="false"';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${shape.viewBox}" class="${escapeAttr(cls)}" fill="currentColor" ${a11y}>${shape.inner}</svg>`;
}
