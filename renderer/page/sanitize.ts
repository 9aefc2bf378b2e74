/**
 * Sanitising user HTML with sanitize-html. Only raw HTML the author wrote (lowercase elements in
 * the MDX) goes through it, with components and code blocks still as placeholders, so the big
 * trusted strings (highlighted code, KaTeX, icons) are never re-parsed.
 */
import sanitizeHtml from 'sanitize-html';

const SVG_TAGS = [
  'svg', 'g', 'path', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'rect', 'text', 'tspan', 'defs',
  'lineargradient', 'radialgradient', 'stop', 'clippath', 'mask', 'use', 'symbol', 'title', 'desc', 'pattern',
];
const SVG_ATTRS = [
  'viewbox', 'viewBox', 'xmlns', 'fill', 'stroke', 'stroke-width', 'stroke-linecap', 'stroke-linejoin', 'd', 'cx', 'cy',
  'r', 'rx', 'ry', 'x', 'y', 'x1', 'x2', 'y1', 'y2', 'points', 'transform', 'opacity', 'fill-rule', 'clip-rule',
  'offset', 'stop-color', 'gradientunits', 'preserveaspectratio', 'fill-opacity', 'stroke-opacity',
];

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags,
    'img', 'details', 'summary', 'figure', 'figcaption', 'picture', 'source', 'video', 'audio', 'track', 'iframe',
    'kbd', 'mark', 'del', 'ins', 's', 'u', 'sub', 'sup', 'center', 'font', 'big', 'small', 'input', 'label',
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'span', 'div', 'br', 'hr',
    ...SVG_TAGS,
  ],
  allowedAttributes: {
    '*': ['class', 'id', 'style', 'title', 'lang', 'dir', 'role', 'aria-*', 'data-*', 'width', 'height', 'align', 'hidden', 'tabindex', 'valign'],
    a: ['href', 'name', 'target', 'rel'],
    img: ['src', 'srcset', 'sizes', 'alt', 'loading', 'decoding'],
    video: ['src', 'poster', 'controls', 'autoplay', 'muted', 'loop', 'playsinline', 'preload'],
    audio: ['src', 'controls', 'autoplay', 'muted', 'loop', 'preload'],
    source: ['src', 'srcset', 'type', 'media', 'sizes'],
    track: ['src', 'kind', 'srclang', 'label', 'default'],
    iframe: ['src', 'allow', 'allowfullscreen', 'frameborder', 'loading', 'referrerpolicy', 'sandbox'],
    td: ['colspan', 'rowspan', 'scope'],
    th: ['colspan', 'rowspan', 'scope'],
    col: ['span'],
    colgroup: ['span'],
    ol: ['start', 'type', 'reversed'],
    li: ['value'],
    details: ['open'],
    input: ['type', 'checked', 'disabled'],
    font: ['color', 'size', 'face'],
    ...Object.fromEntries(SVG_TAGS.map((t) => [t, SVG_ATTRS])),
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'], source: ['http', 'https', 'data'] },
  allowProtocolRelative: false,
  // Embedded frames only from the bundle itself: an external one would break air-gapping anyway.
  allowedIframeHostnames: [],
  allowIframeRelativeUrls: true,
  exclusiveFilter: (frame) => frame.tag === 'iframe' && !frame.attribs['src'],
  disallowedTagsMode: 'discard',
  parser: { lowerCaseAttributeNames: false },
};

export function sanitizeUserHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

/**
 * One line of text with links and emphasis, nothing that loads (no images, media or frames): for
 * the config's banner, which is on every page, where an outside image would break air-gapping on
 * the whole site.
 */
const PHRASING: sanitizeHtml.IOptions = {
  allowedTags: ['a', 'strong', 'b', 'em', 'i', 'code', 'kbd', 'del', 's', 'u', 'mark', 'sub', 'sup', 'br', 'span'],
  allowedAttributes: { a: ['href', 'title', 'rel', 'target'] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};

export function sanitizePhrasingHtml(html: string): string {
  return sanitizeHtml(html, PHRASING);
}
