/**
 * Reading a page's rendered HTML as retrieval text, from tag to tag in one pass: the tags that end
 * a block become line breaks, others spaces, and the blocks whose content is not text (`script`,
 * `style`, `svg`, `template`, `noscript`) are passed over whole. Regex passes for each of those
 * (blocks, then headings, then tags) cost a third of a millisecond an API page.
 */
import { decodeEntities } from '../page/html.js';

const BLOCK_END_TAGS = new Set(['p', 'li', 'pre', 'tr', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'table', 'ul', 'ol']);
const BR_RE = /^<br\s*\/?>$/i;
const ID_RE = /\bid="([^"]*)"/;
const SKIPPED = ['script', 'style', 'svg', 'template', 'noscript'] as const;
/** Each skipped element's closing tag, any case, searched from a position (`lastIndex`). */
const CLOSING: Record<string, RegExp> = Object.fromEntries(SKIPPED.map((name) => [name, new RegExp(`</${name}>`, 'gi')]));

const isWordChar = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/** Whether the tag html[lt..gt] ends a line of text: the closing tag of a block, or `<br>`. */
function endsLine(html: string, lt: number, gt: number): boolean {
  const second = html.charCodeAt(lt + 1);
  // Only closing tags and <br> are sliced: most tags are opening tags with attributes.
  if (second === 47 /* / */) return gt - lt <= 12 && BLOCK_END_TAGS.has(html.slice(lt + 2, gt).toLowerCase());
  return (second === 98 || second === 66) && (html.charCodeAt(lt + 2) === 114 || html.charCodeAt(lt + 2) === 82) && BR_RE.test(html.slice(lt, gt + 1));
}

/**
 * When the tag html[lt..gt] opens a skipped element (its name, then a character that ends a word)
 * that is closed later, the index just past the closing tag; otherwise -1 (the tag is a tag).
 */
function skippedUntil(html: string, lt: number, gt: number): number {
  const first = html.charCodeAt(lt + 1) | 32;
  // s(cript|tyle|vg), t(emplate), n(oscript): most tags are none of them.
  if (first !== 115 && first !== 116 && first !== 110) return -1;
  for (const name of SKIPPED) {
    const after = lt + 1 + name.length;
    if (after > gt || isWordChar(html.charCodeAt(after)) || html.slice(lt + 1, after).toLowerCase() !== name) continue;
    const closing = CLOSING[name] as RegExp;
    closing.lastIndex = gt + 1;
    const m = closing.exec(html);
    return m ? m.index + m[0].length : -1;
  }
  return -1;
}

/**
 * Plain text of a fragment of rendered HTML, block ends as line breaks. A run of tags (and skipped
 * elements) leaves one separator, a line break if any of them ends a line: the whitespace passes
 * below would fold the run to that anyway, and had hundreds of runs a page to fold.
 */
function htmlText(html: string): string {
  let out = '';
  let at = 0;
  // The separator the tags since the last text leave: none, a space, or a line break.
  let sep: '' | ' ' | '\n' = '';
  for (;;) {
    const lt = html.indexOf('<', at);
    if (lt === -1) break;
    const gt = html.indexOf('>', lt + 1);
    // A `<` that opens no tag is text, as is everything after it.
    if (gt === -1) break;
    if (lt > at) {
      out += sep + html.slice(at, lt);
      sep = '';
    }
    const skip = skippedUntil(html, lt, gt);
    if (skip !== -1) {
      if (sep === '') sep = ' ';
      at = skip;
      continue;
    }
    if (sep !== '\n') sep = endsLine(html, lt, gt) ? '\n' : ' ';
    at = gt + 1;
  }
  out += sep + html.slice(at);
  return decodeEntities(out)
    // Runs only: a single space between words is left alone (most matches, and most of the time).
    .replace(/[ \t\u00a0]{2,}|[\t\u00a0]/g, ' ')
    .replace(/ *\n[\s]*/g, '\n')
    .trim();
}

/** `<h2`/`<h3` opening a heading (its level), any case; 0 for any other tag. */
function headingLevel(html: string, lt: number, gt: number): 0 | 2 | 3 {
  if ((html.charCodeAt(lt + 1) | 32) !== 104 /* h */) return 0;
  const digit = html.charCodeAt(lt + 2);
  if ((digit !== 50 && digit !== 51) || (lt + 3 < gt && isWordChar(html.charCodeAt(lt + 3)))) return 0;
  return digit === 50 ? 2 : 3;
}

/**
 * Where the heading opened before `from` closes: the `<` of the first `</h2>` (or `</h3>`, any
 * case) after it outside skipped elements, or -1 when it is never closed.
 */
function headingEnd(html: string, from: number, level: 2 | 3): number {
  const close = `</h${level}>`;
  let at = from;
  for (;;) {
    const lt = html.indexOf('<', at);
    if (lt === -1) return -1;
    const gt = html.indexOf('>', lt + 1);
    if (gt === -1) return -1;
    if (gt - lt === 4 && html.charCodeAt(lt + 1) === 47 && html.slice(lt, gt + 1).toLowerCase() === close) return lt;
    const skip = skippedUntil(html, lt, gt);
    at = skip === -1 ? gt + 1 : skip;
  }
}

/** The text under one heading of a page (the page's title before the first). */
export interface HeadingPart {
  heading: string;
  anchor?: string;
  text: string;
}

/**
 * A page's HTML split at its h2/h3 headings, each part as text: the text before the first heading
 * (headed `title`), then one part per heading that is closed, linked to its id. One pass from tag
 * to tag; skipped elements are passed over whole, so a heading inside a `<template>` starts none.
 */
export function headingParts(html: string, title: string): HeadingPart[] {
  const parts: HeadingPart[] = [];
  let last = 0;
  let current: { heading: string; anchor?: string } = { heading: title };
  let at = 0;
  for (;;) {
    const lt = html.indexOf('<', at);
    if (lt === -1) break;
    const gt = html.indexOf('>', lt + 1);
    if (gt === -1) break;
    const skip = skippedUntil(html, lt, gt);
    if (skip !== -1) {
      at = skip;
      continue;
    }
    const level = headingLevel(html, lt, gt);
    const end = level === 0 ? -1 : headingEnd(html, gt + 1, level);
    if (end === -1) {
      at = gt + 1;
      continue;
    }
    parts.push({ ...current, text: htmlText(html.slice(last, lt)) });
    const anchor = ID_RE.exec(html.slice(lt + 3, gt))?.[1];
    current = { heading: htmlText(html.slice(gt + 1, end)) || title, ...(anchor ? { anchor: decodeEntities(anchor) } : {}) };
    last = at = end + 5;
  }
  parts.push({ ...current, text: htmlText(html.slice(last)) });
  return parts;
}
