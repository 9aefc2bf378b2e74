/** Escaping helpers shared by every page module: all user-provided text goes through one of these. */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const ESCAPE_RE = /[&<>"']/g;

export function escapeHtml(value: string): string {
  return ESCAPE_RE.test(value) ? value.replace(ESCAPE_RE, (ch) => ESCAPES[ch] ?? ch) : value;
}

const ENTITY_RE = /&(?:#(\d+)|#x([0-9a-fA-F]+)|(amp|lt|gt|quot|apos|nbsp|#39));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** Decodes the entities marked and our own escaping produce (enough for plain text and slugs). */
export function decodeEntities(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(ENTITY_RE, (whole, dec: string | undefined, hex: string | undefined, named: string | undefined) => {
    if (dec) return safeCodePoint(Number.parseInt(dec, 10)) ?? whole;
    if (hex) return safeCodePoint(Number.parseInt(hex, 16)) ?? whole;
    return (named && NAMED[named]) ?? whole;
  });
}

function safeCodePoint(n: number): string | undefined {
  return Number.isInteger(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : undefined;
}

const TAG_RE = /<[^>]*>/g;

/** Tags removed, entities decoded: the plain text of a fragment of our own (well-formed) HTML. */
export function htmlToText(html: string): string {
  return decodeEntities(html.replace(TAG_RE, ' '));
}

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
