import fs from 'node:fs';

/** An icon file's viewBox, the attributes that draw it, and its inner markup. */
export interface IconShape {
  viewBox: string;
  /** Presentation attributes of the root `<svg>` (fill, stroke…), rebuilt onto the inline copy. */
  paint: string;
  inner: string;
}

const VIEWBOX_RE = /viewBox="([^"]+)"/;
const OPEN_RE = /<svg\b([^>]*)>/;
const INNER_RE = /<svg[^>]*>([\s\S]*)<\/svg>/;
const COMMENT_RE = /<!--[\s\S]*?-->/g;
const PAINT_RE = /\b(fill|stroke|stroke-width|stroke-linecap|stroke-linejoin)="([^"]*)"/g;

/** Per-process cache of file reads; `null` remembers that a file does not exist. */
const cache = new Map<string, IconShape | null>();

/**
 * One icon file of an icon package, or null when there is none. Icons are read on first use and
 * copied inline into the pages that use them: a bundle carries only the icons it shows.
 */
export function readSvgFile(file: string): IconShape | null {
  const cached = cache.get(file);
  if (cached !== undefined) return cached;
  let shape: IconShape | null = null;
  try {
    const raw = fs.readFileSync(file, 'utf8');
    const viewBox = VIEWBOX_RE.exec(raw)?.[1];
    const inner = INNER_RE.exec(raw)?.[1];
    const open = OPEN_RE.exec(raw)?.[1] ?? '';
    const paint = [...open.matchAll(PAINT_RE)].map((m) => `${m[1]}="${m[2]}"`).join(' ');
    if (viewBox && inner !== undefined) shape = { viewBox, paint: paint || 'fill="currentColor"', inner: inner.replace(COMMENT_RE, '').replace(/\s*\n\s*/g, '') };
  } catch {
    shape = null;
  }
  cache.set(file, shape);
  return shape;
}
