/**
 * Request examples highlighted once per request *shape*, not once per page. highlight.js was half
 * of an API page's render time (six languages per operation, ~2 ms). Two operations whose requests
 * differ only in the text of their values (path, header and query values, body keys and strings)
 * give the same code around those values, so the highlighted markup of a "shape" request (values
 * replaced by sentinels) is made once per worker and the real values are put back in.
 *
 * Put back only where that cannot change the markup: each value is recovered by matching the
 * shape's code around it against the real code (so quoting or escaping a value needed makes the
 * match fail), must consist of characters that end no token in any grammar (no quotes, backslash,
 * `$`, `#`, newline), and the result is checked to read exactly as the real code. Anything else
 * is highlighted by highlight.js as before.
 */
import { ensureLanguage, hljs } from '../page/hljs.js';
import type { HarRequest } from '@readme/httpsnippet';
import { languageOf } from '../page/code.js';

const SENTINEL_RE = /zqx\d+q+/g;
/** Characters a recovered value may hold: none of them opens or closes a string, comment or interpolation. */
const SAFE_RE = /^[\w .:/<>{}@,+=%?&~*()[\]-]*$/;
const MAX_SHAPES = 400;

interface Pair {
  name: string;
  value: string;
}

/**
 * The shape of a request: the same request with every value text a numbered sentinel. `sized`:
 * each sentinel as long as the value it stands for, for generators whose layout depends on
 * lengths (JavaScript's object literals go on one line when they fit in 80 characters).
 */
export function shapeOf(har: HarRequest, sized = false): HarRequest {
  let n = 0;
  const next = (value: string): string => {
    const s = `zqx${n++}q`;
    return sized && value.length > s.length ? s + 'q'.repeat(value.length - s.length) : s;
  };
  const json = (v: unknown): unknown => {
    if (typeof v === 'string') return next(v);
    if (Array.isArray(v)) return v.map(json);
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[next(k)] = json(x);
      return out;
    }
    return v;
  };
  const url = new URL(har.url);
  const shape: HarRequest = {
    ...har,
    url: `${url.origin}/${next(url.pathname.slice(1) + url.search)}`,
    headers: har.headers.map((h: Pair) => ({ name: h.name, value: next(h.value) })),
    queryString: har.queryString.map((q: Pair) => ({ name: q.name, value: next(q.value) })),
    cookies: har.cookies.map((c: Pair) => ({ name: c.name, value: next(c.value) })),
  };
  const pd = har.postData;
  if (pd) {
    if (pd.params) shape.postData = { mimeType: pd.mimeType, params: pd.params.map((p: Pair) => ({ name: p.name, value: next(p.value ?? '') })) };
    else if (typeof pd.text === 'string') {
      let text: string;
      try {
        text = /json/.test(pd.mimeType) ? JSON.stringify(json(JSON.parse(pd.text))) : next(pd.text);
      } catch {
        text = next(pd.text);
      }
      shape.postData = { mimeType: pd.mimeType, text };
    }
  }
  return shape;
}

/** The values the real code has where the shape's code has sentinels, or undefined when they do not line up. */
export function recoverValues(shapeCode: string, realCode: string): string[] | undefined {
  return valuesBetween(shapeCode.split(SENTINEL_RE), realCode);
}

/** recoverValues with the shape code already cut at its sentinels (done once per shape, not per request). */
function valuesBetween(literals: readonly string[], realCode: string): string[] | undefined {
  const first = literals[0] as string;
  if (!realCode.startsWith(first)) return undefined;
  const values: string[] = [];
  let pos = first.length;
  for (let i = 1; i < literals.length; i++) {
    const lit = literals[i] as string;
    const last = i === literals.length - 1;
    let end: number;
    if (last) {
      if (!realCode.endsWith(lit) || realCode.length - lit.length < pos) return undefined;
      end = realCode.length - lit.length;
    } else {
      if (lit === '') return undefined;
      end = realCode.indexOf(lit, pos);
      if (end < 0) return undefined;
    }
    const value = realCode.slice(pos, end);
    if (!SAFE_RE.test(value)) return undefined;
    values.push(value);
    pos = end + lit.length;
  }
  return pos === realCode.length ? values : undefined;
}

const HTML_SPECIAL_RE = /[&<>]/;
const escapeHtml = (s: string): string => (HTML_SPECIAL_RE.test(s) ? s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : s);
const decodeHtml = (s: string): string =>
  s.replace(/<[^>]*>/g, '').replace(/&(lt|gt|quot|#x27|amp);/g, (_m, e: string) => (e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : e === '#x27' ? "'" : '&'));

interface Shaped {
  /** The shape's code cut at its sentinels (literals[i] comes before value i). */
  literals: string[];
  /** Its markup cut at the same sentinels. */
  markup: string[];
}

/**
 * Per worker: by shape, then by language, the shape's code and markup. Bounded to MAX_SHAPES
 * entries in all; the oldest shape goes first. Two levels so that a lookup hashes the shape's key
 * (computed once per request) instead of a new language + key string per language.
 */
const shapeCache = new Map<string, Map<string, Shaped | null>>();
let cachedEntries = 0;

function highlight(code: string, language: string): string {
  return hljs.highlight(code, { language: ensureLanguage(language) ?? language, ignoreIllegals: true }).value;
}

/** A request's two shapes (short and sized sentinels), made once per operation for all its languages. */
export class RequestShapes {
  private short?: { shape: HarRequest; key: string };
  private sized?: { shape: HarRequest; key: string };
  constructor(private readonly har: HarRequest) {}

  get(sized: boolean): { shape: HarRequest; key: string } {
    if (sized) return (this.sized ??= keyed(shapeOf(this.har, true)));
    return (this.short ??= keyed(shapeOf(this.har)));
  }
}

const keyed = (shape: HarRequest): { shape: HarRequest; key: string } => ({ shape, key: JSON.stringify(shape) });

/**
 * highlight.js's markup for `realCode` (generated from the request by `convert`), made from the
 * shape's markup when the values can be put back safely; undefined when the caller should highlight it.
 */
export function highlightFromShape(fence: string, shapes: RequestShapes, realCode: string, convert: (h: HarRequest) => string | undefined): string | undefined {
  const language = languageOf(fence);
  if (!language || language === 'plaintext' || language === 'json') return undefined;
  // Short sentinels first (one shape for many requests), then sized ones where layout differed.
  return fromShape(language, shapes.get(false), realCode, convert) ?? fromShape(language, shapes.get(true), realCode, convert);
}

function fromShape(language: string, { shape, key }: { shape: HarRequest; key: string }, realCode: string, convert: (h: HarRequest) => string | undefined): string | undefined {
  let byLanguage = shapeCache.get(key);
  let shaped = byLanguage?.get(language);
  if (shaped === undefined) {
    shaped = shapedFor(language, shape, convert);
    if (cachedEntries >= MAX_SHAPES) {
      const [oldest, entries] = shapeCache.entries().next().value as [string, Map<string, Shaped | null>];
      shapeCache.delete(oldest);
      cachedEntries -= entries.size;
      if (oldest === key) byLanguage = undefined;
    }
    if (!byLanguage) shapeCache.set(key, (byLanguage = new Map()));
    byLanguage.set(language, shaped);
    cachedEntries++;
  }
  if (!shaped) return undefined;
  const values = valuesBetween(shaped.literals, realCode);
  if (!values) return undefined;
  const { markup } = shaped;
  let html = markup[0] as string;
  for (let k = 1; k < markup.length; k++) html += escapeHtml(values[k - 1] as string) + (markup[k] as string);
  return html;
}

function shapedFor(language: string, shape: HarRequest, convert: (h: HarRequest) => string | undefined): Shaped | null {
  const code = convert(shape);
  if (code === undefined) return null;
  const html = highlight(code, language);
  const literals = code.split(SENTINEL_RE);
  const markup = html.split(SENTINEL_RE);
  // Every sentinel must come out whole in the markup, in text order, and the markup must read
  // as the code: then putting values back in the same order makes the real code's markup.
  return markup.length === literals.length && decodeHtml(html) === code ? { literals, markup } : null;
}
