/**
 * The policy every raw HTML element of a page passes, one element at a time, at any depth (in the
 * page, inside components, inside snippets, inside SVG). Deciding per element, on the attributes
 * the MDX parser read, means nothing is re-parsed and nothing nested can slip past: an element's
 * children are rendered (and judged) on their own before it is written.
 *
 * An allow-list: a tag or attribute not named here is removed. On top of that, URL attributes
 * must be relative or http(s)/mailto/tel (images: also data: raster images).
 */

/** Tags kept, with the attributes each may carry beyond GLOBAL_ATTRS. */
const SVG_TAGS =
  'svg g path circle ellipse line polyline polygon rect text tspan defs lineargradient radialgradient stop clippath mask use symbol title desc pattern';
// Geometry and presentation only: nothing here holds a script or a link (`href`/`xlink:href` on
// <use> and <a> are left out; a `url(#id)` in fill/clip-path/mask/filter names a shape of the page).
const SVG_ATTRS =
  'viewbox xmlns xmlns:xlink version xml:space enable-background fill stroke stroke-width stroke-linecap stroke-linejoin ' +
  'stroke-dasharray stroke-dashoffset stroke-miterlimit d cx cy r rx ry x y x1 x2 y1 y2 dx dy fx fy fr points transform ' +
  'opacity fill-rule clip-rule clip-path clippathunits mask maskunits maskcontentunits filter offset stop-color stop-opacity ' +
  'gradientunits gradienttransform spreadmethod patternunits patterncontentunits patterntransform preserveaspectratio ' +
  'fill-opacity stroke-opacity font-family font-size font-weight font-style text-anchor dominant-baseline ' +
  'alignment-baseline letter-spacing vector-effect shape-rendering color visibility display';

const TAG_ATTRS: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const m = new Map<string, Set<string>>();
  const add = (tags: string, attrs = ''): void => {
    for (const t of tags.split(' ')) m.set(t, new Set(attrs === '' ? [] : attrs.split(' ')));
  };
  add(
    'address article aside footer header h1 h2 h3 h4 h5 h6 hgroup main nav section blockquote dd div dl dt figcaption figure hr ' +
      'li menu ol p pre ul abbr b bdi bdo br cite code data dfn em i kbd mark q rb rp rt rtc ruby s samp small span strong sub sup ' +
      'time u var wbr caption col colgroup table tbody td tfoot th thead tr details summary picture del ins center font big label',
  );
  add('a', 'href name target rel referrerpolicy');
  add('img', 'src srcset sizes alt loading decoding referrerpolicy');
  add('video', 'src poster controls autoplay muted loop playsinline preload');
  add('audio', 'src controls autoplay muted loop preload');
  add('source', 'src srcset type media sizes');
  add('track', 'src kind srclang label default');
  add('iframe', 'src allow allowfullscreen webkitallowfullscreen mozallowfullscreen frameborder loading referrerpolicy sandbox');
  add('td th', 'colspan rowspan scope');
  add('col colgroup', 'span');
  add('ol', 'start type reversed');
  add('li', 'value');
  add('details', 'open');
  add('input', 'type checked disabled');
  add('font', 'color size face');
  add(SVG_TAGS, SVG_ATTRS);
  return m;
})();

const GLOBAL_ATTRS = new Set('class id style title lang dir role width height align hidden tabindex valign'.split(' '));
/** `aria-*` and `data-*` with a name a browser reads as one attribute. */
const PREFIXED_ATTR_RE = /^(?:aria|data)-[a-z0-9_.-]+$/;

/** Removed with everything inside them: their content is code or form state, not page text. */
const DROP_WITH_CONTENT: ReadonlySet<string> = new Set(['script', 'style', 'textarea', 'option', 'noscript']);

/** Attributes holding a URL, and whether a data: image is acceptable there. */
const URL_ATTRS: Record<string, 'link' | 'image'> = { href: 'link', src: 'link', poster: 'image', srcset: 'image' };
const IMAGE_TAGS = new Set(['img', 'source']);
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto', 'tel']);
const SCHEME_RE = /^([a-z][a-z0-9+.-]*):/;
/** Browsers ignore these inside a URL's scheme (`java\tscript:`) and around it. */
const URL_NOISE_RE = /[\u0000-\u0020\u007f-\u009f]/g;
const DATA_IMAGE_RE = /^data:image\/(?:png|gif|jpe?g|webp|avif|bmp)[;,]/;

export type TagVerdict = 'keep' | 'unwrap' | 'drop';

/**
 * `keep`: written with its allowed attributes. `unwrap`: the tag is removed, its (judged) content
 * stays. `drop`: removed with its content. `tag` is lowercase.
 */
export function tagVerdict(tag: string): TagVerdict {
  if (DROP_WITH_CONTENT.has(tag)) return 'drop';
  return TAG_ATTRS.has(tag) ? 'keep' : 'unwrap';
}

/** A URL a browser would not run or fetch from another scheme: relative, http(s), mailto, tel. */
export function isSafeUrl(value: string, allowDataImage: boolean): boolean {
  const url = value.replace(URL_NOISE_RE, '').toLowerCase();
  // `//host` and `/\host` leave the site like `https://host` does, without saying so.
  if (/^[\\/][\\/]/.test(url)) return false;
  const scheme = SCHEME_RE.exec(url)?.[1];
  if (scheme === undefined) return true;
  if (SAFE_SCHEMES.has(scheme)) return true;
  return allowDataImage && DATA_IMAGE_RE.test(url);
}

function isSafeSrcset(value: string): boolean {
  // Candidates are `url [descriptor]` separated by commas; data: URLs hold commas, and are refused.
  if (/data:/i.test(value.replace(URL_NOISE_RE, ''))) return false;
  return value.split(',').every((c) => isSafeUrl(c.trim().split(/\s+/)[0] ?? '', false));
}

/**
 * Mintlify's own switches on raw elements (`<img noZoom>`): they mean nothing in a browser and say
 * nothing a reader needs, so they are left out without a warning.
 */
export const MINTLIFY_ONLY_ATTRS: ReadonlySet<string> = new Set(['nozoom']);

/** Why an attribute is not written, or undefined when it may be. `name` is lowercase. */
export function attributeProblem(tag: string, name: string, value: string | true): string | undefined {
  if (name.startsWith('on')) return 'event handler';
  const own = TAG_ATTRS.get(tag);
  if (!GLOBAL_ATTRS.has(name) && !PREFIXED_ATTR_RE.test(name) && !own?.has(name)) return 'not allowed';
  const kind = URL_ATTRS[name];
  if (kind === undefined || value === true) return undefined;
  const dataImage = kind === 'image' || IMAGE_TAGS.has(tag);
  const ok = name === 'srcset' ? isSafeSrcset(value) : isSafeUrl(value, dataImage);
  return ok ? undefined : 'unsafe URL';
}
