/**
 * Media hosted on another site. The exported site loads nothing from outside the bundle (its CSP
 * allows only 'self'), so an outside iframe, video or image would show as an empty frame or a
 * broken image. Instead the reader gets a visible stand-in that says what was there and links to
 * it: a card for an embed (title, host, link: "hosted at youtube.com, which this network may not
 * reach") and a placeholder for an image (alt text, host, link). The warnings stay as they were.
 * The markup is trusted and goes into a slot, so sanitising a surrounding raw HTML block leaves it.
 */
import type { Env } from './env.js';
import { escapeHtml } from './html.js';
import { resolveAsset } from './links.js';
import type { Literal } from './literal.js';
import { evaluateProps } from './render.js';
import type { PageState } from './state.js';
import type { ElementNode } from './tree.js';

const OUTSIDE_RE = /^(?:https?:)?\/\//i;

export function isOutsideUrl(src: string): boolean {
  return OUTSIDE_RE.test(src.trim());
}

function parse(src: string): URL | undefined {
  try {
    return new URL(src.trim().startsWith('//') ? `https:${src.trim()}` : src.trim());
  } catch {
    return undefined;
  }
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^www\./, '');
}

interface KnownHost {
  name: string;
  /** The page a reader can open for an embed URL (`/embed/ID` → `/watch?v=ID`). */
  page: (url: URL) => string | undefined;
}

const KNOWN: [RegExp, KnownHost][] = [
  [
    /(^|\.)youtube(-nocookie)?\.com$/,
    {
      name: 'YouTube video',
      page: (u) => {
        const id = /^\/embed\/([\w-]+)/.exec(u.pathname)?.[1];
        return id ? `https://www.youtube.com/watch?v=${id}` : undefined;
      },
    },
  ],
  [/(^|\.)youtu\.be$/, { name: 'YouTube video', page: () => undefined }],
  [
    /(^|\.)loom\.com$/,
    {
      name: 'Loom video',
      page: (u) => {
        const id = /^\/embed\/([\w-]+)/.exec(u.pathname)?.[1];
        return id ? `https://www.loom.com/share/${id}` : undefined;
      },
    },
  ],
  [
    /(^|\.)vimeo\.com$/,
    {
      name: 'Vimeo video',
      page: (u) => {
        const id = /^\/video\/(\d+)/.exec(u.pathname)?.[1];
        return id ? `https://vimeo.com/${id}` : undefined;
      },
    },
  ],
  [/(^|\.)wistia\.(com|net)$/, { name: 'Wistia video', page: () => undefined }],
  [/(^|\.)figma\.com$/, { name: 'Figma file', page: () => undefined }],
  [/(^|\.)codesandbox\.io$/, { name: 'CodeSandbox', page: () => undefined }],
  [/(^|\.)arcade\.software$/, { name: 'Arcade demo', page: () => undefined }],
];

const PLAY_ICON =
  '<svg class="c-outside__icon" viewBox="0 0 24 24" aria-hidden="true"><rect x="2.5" y="4.5" width="19" height="15" rx="2.5" fill="none" stroke="currentColor" stroke-width="1.5"/><path d="M10 9.2v5.6l4.8-2.8z" fill="currentColor"/></svg>';
const IMAGE_ICON =
  '<svg class="c-outside__icon" viewBox="0 0 24 24" aria-hidden="true"><rect x="3" y="4" width="18" height="16" rx="2" fill="none" stroke="currentColor" stroke-width="1.5"/><circle cx="9" cy="9.5" r="1.6" fill="currentColor"/><path d="M4 18l5-5 3.5 3.5L16 13l4 4" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round"/></svg>';

function note(host: string): string {
  return `<span class="c-outside__note">Hosted at ${escapeHtml(host)}, which this network may not reach.</span>`;
}

function link(href: string): string {
  return `<a class="c-outside__link" href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer">${escapeHtml(href)}</a>`;
}

/**
 * The element's own classes, kept on a box around its stand-in: a light/dark pair (`block
 * dark:hidden` beside `hidden dark:block`) then shows one notice per theme, as it would have shown
 * one picture. Around it, not on it: `block` would undo the notice's own flex layout.
 */
function withClasses(className: string | undefined, html: string): string {
  const list = className?.trim();
  return list ? `<span class="${escapeHtml(list)}">${html}</span>` : html;
}

/**
 * A card standing in for an outside iframe, video or audio element, or undefined when `src`
 * is not outside. `title` is the element's own title, if any.
 */
export function outsideEmbedCard(state: PageState, kind: 'iframe' | 'video' | 'audio', src: string, title: string | undefined, className?: string): string | undefined {
  if (!isOutsideUrl(src)) return undefined;
  const url = parse(src);
  if (!url || !/^https?:$/.test(url.protocol)) return undefined;
  const known = KNOWN.find(([re]) => re.test(url.hostname))?.[1];
  const href = known?.page(url) ?? url.href;
  const host = hostOf(new URL(href));
  const label = title?.trim() || known?.name || (kind === 'iframe' ? 'Embedded content' : kind === 'video' ? 'Video' : 'Audio');
  const html =
    `<span class="c-outside c-outside--embed" data-outside-host="${escapeHtml(host)}">${PLAY_ICON}` +
    `<span class="c-outside__body"><span class="c-outside__title">${escapeHtml(label)}</span>${note(host)}${state.linkDepth > 0 ? '' : link(href)}</span></span>`;
  return state.inline(withClasses(className, html), `${label} ${href}`);
}

/**
 * Below this many CSS pixels in either dimension the image's box cannot hold the notice (a 40 px
 * icon box wrapped it one letter a line and spilled over what followed): the placeholder is then
 * the image icon alone, at the box's size, with the notice as its accessible name and tooltip.
 */
export const SMALL_IMAGE_PX = 96;

/** A CSS length as pixels: a number, `"40"`, `"40px"`, `"2.5rem"` (16 px a rem); else undefined. */
function pixels(v: Literal | undefined): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) && v > 0 ? v : undefined;
  if (typeof v !== 'string') return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(px|r?em)?\s*$/i.exec(v);
  if (!m) return undefined;
  const n = Number(m[1]) * (m[2] && /r?em/i.test(m[2]) ? 16 : 1);
  return n > 0 ? n : undefined;
}

/** Tailwind's sizes in a class list (`w-10`, `h-[40px]`, `size-8`; a step is 4 px), as `{ width, height }`. */
function tailwindBox(className: string | undefined): { width?: number; height?: number } {
  const box: { width?: number; height?: number } = {};
  for (const cls of (className ?? '').split(/\s+/)) {
    // A variant (`md:w-10`, `dark:`) is a size only sometimes: the base one decides.
    const m = /^(w|h|size)-(?:(\d+(?:\.5)?)|\[([^\]]+)\])$/.exec(cls);
    if (!m) continue;
    const px = m[2] !== undefined ? Number(m[2]) * 4 : pixels(m[3]);
    if (px === undefined || px <= 0) continue;
    if (m[1] !== 'h') box.width = px;
    if (m[1] !== 'w') box.height = px;
  }
  return box;
}

/** The size an image's own attributes, style and Tailwind classes give its box. */
export function imageBox(props: Record<string, Literal>): { width?: number; height?: number } {
  const style = props['style'];
  const styled = (name: string): number | undefined => {
    if (style && typeof style === 'object' && !Array.isArray(style)) return pixels(style[name]);
    if (typeof style === 'string') return pixels(new RegExp(`(?:^|;)\\s*${name}\\s*:\\s*([^;]+)`, 'i').exec(style)?.[1]);
    return undefined;
  };
  const cls = typeof props['className'] === 'string' ? props['className'] : typeof props['class'] === 'string' ? props['class'] : undefined;
  const tw = tailwindBox(cls);
  const width = styled('width') ?? pixels(props['width']) ?? tw.width;
  const height = styled('height') ?? pixels(props['height']) ?? tw.height;
  return { ...(width !== undefined ? { width } : {}), ...(height !== undefined ? { height } : {}) };
}

function isSmall(box: { width?: number; height?: number } | undefined): boolean {
  return box !== undefined && Math.min(box.width ?? Infinity, box.height ?? Infinity) < SMALL_IMAGE_PX;
}

/**
 * A placeholder standing in for an outside image: its alt text, host and link. `className` is
 * the theme's own class for the placeholder; `authorClass` the element's classes (withClasses). Links cannot
 * nest: inside a link (a badge in `[![…](…)](…)`, a Card's image with `linked: false`) the
 * placeholder shows no link of its own and the surrounding link still works. In a small box
 * (`box` under SMALL_IMAGE_PX, an icon box: `small` or inside a component's `icon`) it is the
 * icon alone.
 */
export function outsideImagePlaceholder(
  state: PageState,
  src: string,
  alt: string,
  opts: { linked?: boolean; className?: string; authorClass?: string; box?: { width?: number; height?: number }; small?: boolean } = {},
): string | undefined {
  if (!isOutsideUrl(src)) return undefined;
  const url = parse(src);
  if (!url || !/^https?:$/.test(url.protocol)) return undefined;
  const host = hostOf(url);
  const label = alt.trim() || 'Image';
  if (opts.small || state.iconDepth > 0 || isSmall(opts.box)) {
    // Icon only, the box's size kept; the notice is its name (role img) and its tooltip.
    const words = `${label}. Hosted at ${host}, which this network may not reach.`;
    // One side given (`width="40"`): square, as the icons and logos of small boxes are.
    const width = opts.box?.width ?? opts.box?.height;
    const height = opts.box?.height ?? opts.box?.width;
    const size = width !== undefined && height !== undefined ? `width:${width}px;height:${height}px` : '';
    const small =
      `<span class="c-outside c-outside--image c-outside--small${opts.className ? ` ${opts.className}` : ''}" role="img" aria-label="${escapeHtml(words)}" title="${escapeHtml(words)}"${size ? ` style="${size}"` : ''}>` +
      `${IMAGE_ICON}</span>`;
    return state.inline(withClasses(opts.authorClass, small), label);
  }
  const html =
    `<span class="c-outside c-outside--image${opts.className ? ` ${opts.className}` : ''}">${IMAGE_ICON}` +
    `<span class="c-outside__body"><span class="c-outside__title">${escapeHtml(label)}</span>${note(host)}${opts.linked === false || state.linkDepth > 0 ? '' : link(url.href)}</span></span>`;
  return state.inline(withClasses(opts.authorClass, html), label);
}

/**
 * The stand-in for a raw `<img>`, `<iframe>`, `<video>` or `<audio>` element whose source is
 * outside, or undefined. Called after the element's own attributes were resolved (and warned
 * about); a video's `<source>` children are checked, and warned about, here.
 */
export function outsideElementStandIn(el: ElementNode, props: Record<string, Literal>, env: Env, state: PageState): string | undefined {
  const text = (name: string): string | undefined => (typeof props[name] === 'string' ? (props[name] as string) : undefined);
  const tag = el.name;
  if (tag === 'img') {
    const src = text('src');
    const authorClass = text('className') ?? text('class');
    return src === undefined ? undefined : outsideImagePlaceholder(state, src, text('alt') ?? '', { ...(authorClass ? { authorClass } : {}), box: imageBox(props) });
  }
  if (tag !== 'iframe' && tag !== 'video' && tag !== 'audio') return undefined;
  let src = text('src');
  if (src === undefined) {
    for (const child of el.children) {
      if (child.kind !== 'element' || child.name !== 'source') continue;
      const childSrc = evaluateProps(child, env)['src'];
      if (typeof childSrc !== 'string') continue;
      if (!isOutsideUrl(childSrc)) return undefined; // a local source plays
      src ??= childSrc;
    }
    if (src !== undefined) resolveAsset(src, state, env, 'media');
  }
  return src === undefined ? undefined : outsideEmbedCard(state, tag, src, text('title') ?? text('aria-label'), text('className') ?? text('class'));
}
