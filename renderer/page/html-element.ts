/**
 * Lowercase (raw HTML) elements written in MDX. Attributes are rebuilt from the parsed values
 * (JSX spellings mapped to HTML, links and images rewritten), then the outermost raw element is
 * passed through sanitize-html unless the project opted in to unsafe HTML.
 */
import { locate, type Env } from './env.js';
import { escapeHtml } from './html.js';
import type { Literal } from './literal.js';
import { resolveAsset, resolveHref } from './links.js';
import { outsideElementStandIn } from './outside-media.js';
import { evaluateProps, renderNodes } from './render.js';
import { sanitizeUserHtml } from './sanitize.js';
import type { PageState } from './state.js';
import type { ElementNode } from './tree.js';
import { VOID_TAGS } from './html-tags.js';

const JSX_ATTR_NAMES: Record<string, string> = {
  className: 'class',
  htmlFor: 'for',
  tabIndex: 'tabindex',
  readOnly: 'readonly',
  colSpan: 'colspan',
  rowSpan: 'rowspan',
  autoPlay: 'autoplay',
  playsInline: 'playsinline',
  allowFullScreen: 'allowfullscreen',
  frameBorder: 'frameborder',
  srcSet: 'srcset',
  crossOrigin: 'crossorigin',
  referrerPolicy: 'referrerpolicy',
  strokeWidth: 'stroke-width',
  strokeLinecap: 'stroke-linecap',
  strokeLinejoin: 'stroke-linejoin',
  fillRule: 'fill-rule',
  clipRule: 'clip-rule',
  stopColor: 'stop-color',
  fillOpacity: 'fill-opacity',
  strokeOpacity: 'stroke-opacity',
};

const CAMEL_RE = /[A-Z]/g;

/**
 * Markup that needs no sanitiser: these tags with these attributes (URLs already went through
 * resolveHref/resolveAsset, which neutralise dangerous schemes). Anything else in a raw HTML
 * subtree sends the whole subtree through sanitize-html.
 */
const PLAIN_TAGS = new Set(
  ('a abbr b blockquote br caption center code col colgroup dd del details div dl dt em figcaption figure ' +
    'h1 h2 h3 h4 h5 h6 hr i img ins kbd li mark ol p pre s small span strong sub summary sup table tbody td ' +
    'tfoot th thead tr u ul').split(' '),
);
const PLAIN_ATTRS = new Set(['class', 'id', 'title', 'alt', 'href', 'src', 'width', 'height', 'align', 'colspan', 'rowspan', 'loading', 'target', 'rel', 'open', 'start', 'lang', 'dir']);
const MEDIA_TAGS = new Set(['video', 'audio', 'source', 'track']);

/** `{{ marginTop: 8, color: 'red' }}` → `margin-top:8px;color:red`. */
function styleToCss(style: Record<string, Literal>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(style)) {
    if (value === null || value === undefined || typeof value === 'object' || typeof value === 'boolean') continue;
    const prop = key.startsWith('--') ? key : key.replace(CAMEL_RE, (c) => `-${c.toLowerCase()}`);
    const unitless = typeof value === 'number' && value !== 0 && !/^(?:opacity|z-index|font-weight|line-height|flex|flex-grow|flex-shrink|order)$/.test(prop);
    parts.push(`${prop}:${value}${unitless ? 'px' : ''}`);
  }
  return parts.join(';');
}

function attrValue(name: string, value: Literal): string | true | undefined {
  if (value === undefined || value === null || value === false) return undefined;
  if (value === true) return true;
  if (name === 'style' && typeof value === 'object' && !Array.isArray(value)) return styleToCss(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function renderHtmlElement(el: ElementNode, env: Env, state: PageState): string {
  const tag = el.name;
  const props = evaluateProps(el, env);
  let attrs = '';
  let plain = PLAIN_TAGS.has(tag);
  let targetBlank = false;
  let hasRel = false;
  for (const [rawName, raw] of Object.entries(props)) {
    const name = JSX_ATTR_NAMES[rawName] ?? rawName;
    let value = attrValue(name, raw);
    if (value === undefined) continue;
    if (typeof value === 'string') {
      if (name === 'href' && tag === 'a') value = resolveHref(value, state, env);
      else if (name === 'src' && tag === 'img') value = resolveAsset(value, state, env);
      else if (name === 'src' && MEDIA_TAGS.has(tag)) value = resolveAsset(value, state, env, 'media');
      else if ((name === 'poster' && tag === 'video')) value = resolveAsset(value, state, env, 'media');
      else if (name === 'src' && tag === 'iframe') value = resolveFrameSrc(value, state, env);
    }
    if (!PLAIN_ATTRS.has(name)) plain = false;
    if (name === 'target' && value === '_blank') targetBlank = true;
    if (name === 'rel') hasRel = true;
    attrs += value === true ? ` ${name}` : ` ${name}="${escapeHtml(value)}"`;
  }
  const standIn = outsideElementStandIn(el, props, env, state);
  if (standIn !== undefined) return standIn;
  if (tag === 'a' && targetBlank && !hasRel) attrs += ' rel="noopener noreferrer"';
  if (tag === 'img' && !('loading' in props)) attrs += ' loading="lazy"';
  let html: string;
  if (VOID_TAGS.has(tag)) {
    html = `<${tag}${attrs}>`;
  } else if (el.raw !== undefined) {
    // script/style: kept verbatim only when the project allows unsafe HTML (sanitising drops them).
    html = state.unsafeHtml ? `<${tag}${attrs}>${el.raw}</${tag}>` : '';
  } else {
    const outerDirty = state.htmlDirty;
    state.htmlDirty = false;
    state.htmlDepth++;
    if (tag === 'a') state.linkDepth++;
    let inner: string;
    try {
      inner = renderNodes(el.children, env, state, el.multiline ? 'block' : 'inline');
    } finally {
      state.htmlDepth--;
      if (tag === 'a') state.linkDepth--;
    }
    plain = plain && !state.htmlDirty;
    state.htmlDirty = outerDirty;
    html = `<${tag}${attrs}>${inner}</${tag}>`;
  }
  if (!plain) state.htmlDirty = true;
  if (state.unsafeHtml || state.htmlDepth > 0) return html;
  state.htmlDirty = false;
  return plain ? html : sanitizeUserHtml(html);
}

function resolveFrameSrc(src: string, state: PageState, env: Env): string {
  if (/^(?:https?:)?\/\//i.test(src)) {
    if (!state.wants('external-embed')) return src;
    const where = locate(env, src);
    state.warn('external-embed', `Embedded frame ${src} points outside the bundle and will not load in an air-gapped site`, where.file, where.line);
    return src;
  }
  return resolveHref(src, state, env);
}
