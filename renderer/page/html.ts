/** Escaping helpers shared by every page module: all user-provided text goes through one of these. */

const ESCAPE_RE = /[&<>"']/;

/**
 * `& < > " '` as references. From the first one on, a loop over the characters: code examples
 * have a quote every few characters, and a replace callback per character cost 1.7 times as much.
 */
export function escapeHtml(value: string): string {
  const first = ESCAPE_RE.exec(value);
  if (first === null) return value;
  let out = '';
  let last = 0;
  for (let i = first.index; i < value.length; i++) {
    let ref: string;
    switch (value.charCodeAt(i)) {
      case 38:
        ref = '&amp;';
        break;
      case 60:
        ref = '&lt;';
        break;
      case 62:
        ref = '&gt;';
        break;
      case 34:
        ref = '&quot;';
        break;
      case 39:
        ref = '&#39;';
        break;
      default:
        continue;
    }
    if (last !== i) out += value.slice(last, i);
    out += ref;
    last = i + 1;
  }
  return last < value.length ? out + value.slice(last) : out;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };
const DIGITS_RE = /^\d+$/;
const HEX_RE = /^[0-9a-fA-F]+$/;

/** The character a reference's name (between `&` and `;`) stands for, or undefined. */
function decodeOne(name: string): string | undefined {
  if (name.charCodeAt(0) === 35 /* # */) {
    if (name.charCodeAt(1) === 120 /* x */) return HEX_RE.test(name.slice(2)) ? safeCodePoint(Number.parseInt(name.slice(2), 16)) : undefined;
    return DIGITS_RE.test(name.slice(1)) ? safeCodePoint(Number.parseInt(name.slice(1), 10)) : undefined;
  }
  return Object.hasOwn(NAMED, name) ? NAMED[name] : undefined;
}

/**
 * Decodes the entities marked and our own escaping produce (enough for plain text and slugs):
 * `&amp; &lt; &gt; &quot; &apos; &nbsp; &#NN; &#xHH;`; anything else stays as written. One scan
 * from `&` to `&` (highlighted code has an entity every few characters; a regex callback per
 * match was a measurable share of every page).
 */
export function decodeEntities(value: string): string {
  let amp = value.indexOf('&');
  if (amp === -1) return value;
  let out = '';
  let at = 0;
  // The first `;` after the current `&`: the same for every `&` before it (linear, whatever the text).
  let semi = -1;
  while (amp !== -1) {
    if (semi <= amp) semi = value.indexOf(';', amp + 1);
    if (semi === -1) break;
    const decoded = escaped(value, amp, semi) ?? decodeOne(value.slice(amp + 1, semi));
    if (decoded !== undefined) {
      out += value.slice(at, amp) + decoded;
      at = semi + 1;
      amp = value.indexOf('&', at);
    } else {
      amp = value.indexOf('&', amp + 1);
    }
  }
  return at === 0 ? value : out + value.slice(at);
}

/**
 * The references escapeHtml writes (`&lt; &gt; &amp; &#39; &quot;`), told by their characters in
 * place: highlighted code has one every few characters, and slicing each name out to look it up
 * was most of the cost of reading a code block's text.
 */
function escaped(value: string, amp: number, semi: number): string | undefined {
  switch (semi - amp) {
    case 3: {
      if (value.charCodeAt(amp + 2) !== 116 /* t */) return undefined;
      const c = value.charCodeAt(amp + 1);
      return c === 108 /* l */ ? '<' : c === 103 /* g */ ? '>' : undefined;
    }
    case 4:
      return value.startsWith('amp', amp + 1) ? '&' : value.startsWith('#39', amp + 1) ? "'" : undefined;
    case 5:
      return value.startsWith('quot', amp + 1) ? '"' : undefined;
    default:
      return undefined;
  }
}

function safeCodePoint(n: number): string | undefined {
  return Number.isInteger(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : undefined;
}

/**
 * Tags removed, entities decoded: the plain text of a fragment of our own (well-formed) HTML. Each
 * tag (a `<` to the next `>`) becomes a space, a run of tags one space: every caller folds
 * whitespace afterwards, and the runs were most of what its regex had to fold. One pass from tag
 * to tag, which costs about half a global replace on tag-dense markup (fields, highlighted code).
 */
export function htmlToText(html: string): string {
  let lt = html.indexOf('<');
  if (lt === -1) return decodeEntities(html);
  let out = '';
  let at = 0;
  let space = false;
  while (lt !== -1) {
    const gt = html.indexOf('>', lt + 1);
    // A `<` that opens no tag is text, as is everything after it.
    if (gt === -1) break;
    if (lt > at) out += space ? ` ${html.slice(at, lt)}` : html.slice(at, lt);
    space = true;
    at = gt + 1;
    lt = html.indexOf('<', at);
  }
  return decodeEntities(space ? `${out} ${html.slice(at)}` : out + html.slice(at));
}

const TAG_RE = /<[^>]*>/g;

/** The same for inline HTML (a heading's content), where tags do not separate words. */
export function inlineHtmlToText(html: string): string {
  return decodeEntities(html.replace(TAG_RE, ''));
}

/** `name="value"` pairs, escaped; undefined/false values are dropped, `true` gives a bare attribute. */
export function attrs(pairs: Record<string, string | number | boolean | undefined>): string {
  let out = '';
  for (const [key, value] of Object.entries(pairs)) {
    if (value === undefined || value === false) continue;
    out += value === true ? ` ${key}` : ` ${key}="${escapeHtml(String(value))}"`;
  }
  return out;
}
