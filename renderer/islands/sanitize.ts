/**
 * HTML that repository code produced in the sandbox passes an allow-list before it enters a page:
 * no scripts, no event handlers, no `javascript:` links, whatever the component wrote (its
 * `dangerouslySetInnerHTML` included). With component scripts off this is all a reader gets.
 */
import sanitizeHtml from 'sanitize-html';

const TAGS =
  'a abbr article aside b bdi bdo blockquote br button caption cite code col colgroup data dd del details dfn div dl dt em ' +
  'figcaption figure footer h1 h2 h3 h4 h5 h6 header hr i img input ins kbd label legend li main mark nav ol optgroup option ' +
  'p picture pre q s samp section select small source span strong sub summary sup table tbody td textarea tfoot th thead time ' +
  'tr u ul var video audio track fieldset progress meter mint-html ' +
  'svg g path circle ellipse line polyline polygon rect text tspan defs linearGradient radialGradient stop clipPath mask symbol title desc';

const ATTRS = [
  'class', 'id', 'style', 'title', 'role', 'lang', 'dir', 'hidden', 'tabindex', 'aria-*', 'data-*',
  'href', 'target', 'rel', 'src', 'srcset', 'sizes', 'alt', 'width', 'height', 'loading', 'decoding', 'poster', 'controls',
  'type', 'name', 'value', 'min', 'max', 'step', 'checked', 'disabled', 'placeholder', 'readonly', 'for', 'open', 'colspan', 'rowspan',
  'datetime', 'start', 'reversed', 'selected', 'multiple', 'rows', 'cols',
  'viewBox', 'xmlns', 'focusable', 'fill', 'stroke', 'stroke-width', 'stroke-linecap', 'stroke-linejoin', 'stroke-dasharray', 'stroke-miterlimit', 'd', 'cx', 'cy', 'r', 'rx', 'ry',
  'x', 'y', 'x1', 'x2', 'y1', 'y2', 'points', 'transform', 'opacity', 'fill-rule', 'clip-rule', 'offset', 'stop-color',
];

// @types/sanitize-html lags the library: `allowedEmptyAttributes` exists since sanitize-html 2.11.
const OPTIONS: sanitizeHtml.IOptions & { allowedEmptyAttributes: string[] } = {
  allowedTags: TAGS.split(' '),
  allowedAttributes: { '*': ATTRS },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // sanitize-html drops an empty `hidden` (it may be `until-found`): closed tab panels keep it.
  allowedEmptyAttributes: ['alt', 'hidden'],
  parser: { lowerCaseAttributeNames: false },
};

export function sanitizePrerendered(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
