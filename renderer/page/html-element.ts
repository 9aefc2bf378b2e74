/**
 * Lowercase (raw HTML) elements written in MDX. Each one, at any depth, is judged on its own by
 * html-policy.ts (unless the project opted in to unsafe HTML): its tag and attributes are rebuilt
 * from the parsed values (JSX spellings mapped to HTML, links and images rewritten), so what is
 * written is exactly what the policy saw, and whatever it removes is reported as `unsafe-html`.
 */
import { locate, type Env } from './env.js';
import { escapeHtml } from './html.js';
import type { Literal } from './literal.js';
import { resolveAsset, resolveHref } from './links.js';
import { outsideElementStandIn } from './outside-media.js';
import { evaluateProps, renderNodes } from './render.js';
import { attributeProblem, MINTLIFY_ONLY_ATTRS, tagVerdict } from './html-policy.js';
import type { PageState } from './state.js';
import type { ElementNode, Node } from './tree.js';
import { evaluate } from './evaluate.js';
import { codeAsText } from './expression-island.js';
import { parseMdx } from './parse.js';
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
  strokeDasharray: 'stroke-dasharray',
  strokeDashoffset: 'stroke-dashoffset',
  strokeMiterlimit: 'stroke-miterlimit',
  stopOpacity: 'stop-opacity',
  clipPath: 'clip-path',
  enableBackground: 'enable-background',
  fontFamily: 'font-family',
  fontSize: 'font-size',
  fontWeight: 'font-weight',
  fontStyle: 'font-style',
  textAnchor: 'text-anchor',
  dominantBaseline: 'dominant-baseline',
  alignmentBaseline: 'alignment-baseline',
  letterSpacing: 'letter-spacing',
  vectorEffect: 'vector-effect',
  shapeRendering: 'shape-rendering',
  xmlSpace: 'xml:space',
  xmlnsXlink: 'xmlns:xlink',
  xlinkHref: 'xlink:href',
};

const CAMEL_RE = /[A-Z]/g;

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
  if (state.unsafeHtml) return renderUnchecked(el, env, state);
  const tag = el.name.toLowerCase();
  const verdict = tagVerdict(tag);
  if (verdict === 'drop') {
    report(state, env, el, `<${tag}> removed with its content (not allowed on a page)`);
    return '';
  }
  if (verdict === 'unwrap') {
    report(state, env, el, `<${tag}> removed, its content kept (not an allowed element)`);
    return VOID_TAGS.has(tag) || el.raw !== undefined ? '' : renderChildren(el, env, state);
  }
  const removed: string[] = [];
  const props = evaluateProps(el, env);
  const inner = innerHtmlNodes(el, env, state);
  delete props['dangerouslySetInnerHTML'];
  let attrs = '';
  let targetBlank = false;
  let hasRel = false;
  let hasSrc = false;
  for (const [rawName, raw] of Object.entries(props)) {
    const name = JSX_ATTR_NAMES[rawName] ?? rawName;
    let value = attrValue(name, raw);
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    if (MINTLIFY_ONLY_ATTRS.has(lower)) continue;
    // The name first, then the URL as the page's link rules rewrote it (`javascript:` → `#`, unsafe-link).
    let problem = attributeProblem(tag, lower, true);
    if (problem === undefined && typeof value === 'string') {
      const resolved = resolveUrl(tag, lower, value, state, env);
      if (resolved === undefined) continue; // the link rules said why (external-embed)
      value = resolved;
      problem = attributeProblem(tag, lower, value);
    }
    if (problem !== undefined) {
      removed.push(`${name} (${problem})`);
      continue;
    }
    if (lower === 'target' && value === '_blank') targetBlank = true;
    if (lower === 'rel') hasRel = true;
    if (lower === 'src' && value !== true && value !== '') hasSrc = true;
    attrs += value === true ? ` ${name}` : ` ${name}="${escapeHtml(value)}"`;
  }
  if (removed.length > 0) report(state, env, el, `<${tag}>: removed ${removed.join(', ')}`);
  // An outside embed or image becomes a visible card/placeholder with its link (outside-media.ts).
  const standIn = outsideElementStandIn(el, props, env, state);
  if (standIn !== undefined) return standIn;
  // A frame without a page of the bundle to show is nothing but a hole in the page.
  if (tag === 'iframe' && !hasSrc) return '';
  if (tag === 'a' && targetBlank && !hasRel) attrs += ' rel="noopener noreferrer"';
  if (tag === 'img' && !('loading' in props)) attrs += ' loading="lazy"';
  if (VOID_TAGS.has(tag)) return `<${tag}${attrs}>`;
  if (inner) return `<${tag}${attrs}>${renderNodes(inner, env, state, 'inline')}</${tag}>`;
  if (tag === 'p') return `<p${attrs}>${paragraphContent(renderChildren(el, env, state))}</p>`;
  if (tag !== 'a') return `<${tag}${attrs}>${renderChildren(el, env, state)}</${tag}>`;
  // Stand-ins inside a link leave out their own link (no nested <a>).
  state.linkDepth++;
  try {
    return `<${tag}${attrs}>${renderChildren(el, env, state)}</${tag}>`;
  } finally {
    state.linkDepth--;
  }
}

/**
 * `dangerouslySetInnerHTML={{ __html: … }}` (a literal, or code computed in the sandbox such as
 * `strings.generateKeyInstructions`): its HTML read as the page's own markup, so every element in
 * it meets the raw HTML policy like any other. Braces in it are text, not expressions.
 */
function innerHtmlNodes(el: ElementNode, env: Env, state: PageState): Node[] | undefined {
  const attr = el.attrs.find((a) => a.name === 'dangerouslySetInnerHTML');
  if (!attr || attr.value.kind !== 'expr') return undefined;
  const value = evaluate(attr.value.code, env.scope);
  let html: string | undefined;
  if (value.kind === 'value' && value.value !== null && typeof value.value === 'object' && !Array.isArray(value.value)) {
    const h = (value.value as Record<string, Literal>)['__html'];
    if (typeof h === 'string') html = h;
  } else if (value.kind === 'unsupported') {
    html = codeAsText(`(${attr.value.code}).__html`, env, state);
  }
  if (html === undefined) return undefined;
  const source = html.replace(/\{/g, '&#123;').replace(/\}/g, '&#125;');
  return parseMdx(env.file, source, el.line, { esm: false }).nodes;
}

const LONE_PARAGRAPH_RE = /^\s*<p>((?:(?!<\/?p[\s>])[\s\S])*)<\/p>\s*$/;

/**
 * A `<p>` whose text sits on lines of its own (`<p className="text-lg">⏎  Text⏎</p>`, the form
 * Mintlify's custom-layouts guide shows) holds a Markdown paragraph, as MDX reads it: a `<p>` in a
 * `<p>`. A browser parsing that HTML closes the first at the second, leaving the author's classes on
 * an empty paragraph and the text unstyled; the hosted site's client rendering keeps it nested, so
 * the text is styled. The lone inner paragraph is unwrapped: the text inside the author's `<p>`.
 */
function paragraphContent(html: string): string {
  return LONE_PARAGRAPH_RE.exec(html)?.[1] ?? html;
}

function renderChildren(el: ElementNode, env: Env, state: PageState): string {
  return renderNodes(el.children, env, state, el.multiline ? 'block' : 'inline');
}

function report(state: PageState, env: Env, el: ElementNode, message: string): void {
  state.warn('unsafe-html', message, env.file, el.line);
}

/** Links and media through the page's link rules; undefined when the attribute must go. */
function resolveUrl(tag: string, name: string, value: string, state: PageState, env: Env): string | undefined {
  if (name === 'href' && tag === 'a') return resolveHref(value, state, env);
  if (name === 'src' && tag === 'img') return resolveAsset(value, state, env);
  if ((name === 'src' && MEDIA_TAGS.has(tag)) || (name === 'poster' && tag === 'video')) return resolveAsset(value, state, env, 'media');
  if (name === 'src' && tag === 'iframe') return resolveFrameSrc(value, state, env);
  return value;
}

/** `allowUnsafeHtml`: the project vouches for its HTML, which is written as the author wrote it. */
function renderUnchecked(el: ElementNode, env: Env, state: PageState): string {
  const tag = el.name;
  const props = evaluateProps(el, env);
  let attrs = '';
  for (const [rawName, raw] of Object.entries(props)) {
    const name = JSX_ATTR_NAMES[rawName] ?? rawName;
    let value = attrValue(name, raw);
    if (value === undefined) continue;
    if (typeof value === 'string') value = resolveUrl(tag, name, value, state, env) ?? value;
    attrs += value === true ? ` ${name}` : ` ${name}="${escapeHtml(value)}"`;
  }
  if (VOID_TAGS.has(tag)) return `<${tag}${attrs}>`;
  if (el.raw !== undefined) return `<${tag}${attrs}>${el.raw}</${tag}>`;
  return `<${tag}${attrs}>${renderChildren(el, env, state)}</${tag}>`;
}

function resolveFrameSrc(src: string, state: PageState, env: Env): string | undefined {
  if (/^(?:https?:)?\/\//i.test(src)) {
    if (state.unsafeHtml) return src;
    if (!state.wants('external-embed')) return undefined;
    const where = locate(env, src);
    state.warn('external-embed', `Embedded frame ${src} points outside the bundle (it would not load in an air-gapped site); it is removed`, where.file, where.line);
    return undefined;
  }
  return resolveHref(src, state, env);
}
