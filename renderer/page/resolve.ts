/**
 * The last pass: placeholders are replaced by their slots (recursively, each slot once), heading
 * markers become unique GitHub-style ids in document order, and the toc and plain text are built.
 */
import { LAYOUT_IDS } from '../layout/ids.js';
import type { TocEntry } from '../types.js';
import { escapeHtml } from './html.js';
import { Slugger, slugify } from './slug.js';
import { BLOCK_CLOSE, BLOCK_OPEN, HEADING_CLOSE, HEADING_OPEN, INLINE_CLOSE, INLINE_OPEN, type PageState } from './state.js';

const SLOT_HTML_RE = new RegExp(`<p>\\s*${BLOCK_OPEN}(\\d+)${BLOCK_CLOSE}\\s*</p>\\n?|[${INLINE_OPEN}${BLOCK_OPEN}](\\d+)[${INLINE_CLOSE}${BLOCK_CLOSE}]`, 'g');
const SLOT_TEXT_RE = new RegExp(`[${INLINE_OPEN}${BLOCK_OPEN}](\\d+)[${INLINE_CLOSE}${BLOCK_CLOSE}]`, 'g');
const HEADING_RE = new RegExp(`${HEADING_OPEN}(\\d+)${HEADING_CLOSE}`, 'g');
// Runs of two or more, or any whitespace other than a plain space: single spaces are left alone.
const SPACES_RE = /\s{2,}|[^\S ]/g;

/** Where a slot's resolved form was first written into a parts list; a string once it is reused. */
interface Written {
  parts: string[];
  start: number;
  end: number;
}
type Done = (Written | string | undefined)[];

/**
 * Puts slots back into HTML and into plain text. Both are written into one list of parts and
 * joined once: nested replace callbacks made a rope of thousands of pieces that the next regex
 * (headings, whitespace folding) then had to flatten, a tenth of a millisecond an API page each.
 */
export class Resolver {
  private readonly htmlDone: Done = [];
  private readonly textDone: Done = [];

  constructor(private readonly state: PageState) {}

  html(fragment: string): string {
    if (!hasMarker(fragment)) return fragment;
    const parts: string[] = [];
    this.writeHtml(fragment, parts);
    return parts.join('');
  }

  text(fragment: string): string {
    if (!hasMarker(fragment)) return fragment;
    const parts: string[] = [];
    this.writeText(fragment, parts);
    return parts.join('');
  }

  private writeHtml(fragment: string, parts: string[]): void {
    let at = 0;
    for (const m of fragment.matchAll(SLOT_HTML_RE)) {
      parts.push(fragment.slice(at, m.index));
      const i = Number(m[1] ?? m[2]);
      this.writeSlot(i, parts, this.htmlDone, this.state.slots[i]?.html ?? '', (f) => this.writeHtml(f, parts));
      at = m.index + m[0].length;
    }
    parts.push(fragment.slice(at));
  }

  private writeText(fragment: string, parts: string[]): void {
    let at = 0;
    for (const m of fragment.matchAll(SLOT_TEXT_RE)) {
      parts.push(fragment.slice(at, m.index));
      // Block slots are separate words; inline ones join the sentence they sit in.
      const block = m[0].charAt(0) === BLOCK_OPEN;
      if (block) parts.push(' ');
      const i = Number(m[1]);
      this.writeSlot(i, parts, this.textDone, this.state.slots[i]?.text ?? '', (f) => this.writeText(f, parts));
      if (block) parts.push(' ');
      at = m.index + m[0].length;
    }
    parts.push(fragment.slice(at));
  }

  /** Each slot is resolved once; a slot met again inside itself (a cycle) gives ''. */
  private writeSlot(i: number, parts: string[], done: Done, source: string, write: (fragment: string) => void): void {
    const was = done[i];
    if (typeof was === 'string') {
      parts.push(was);
      return;
    }
    if (was !== undefined) {
      const joined = was.parts.slice(was.start, was.end).join('');
      done[i] = joined;
      parts.push(joined);
      return;
    }
    const range: Written = { parts, start: parts.length, end: parts.length };
    done[i] = '';
    write(source);
    range.end = parts.length;
    done[i] = range;
  }
}

const MARKER_RE = /[\uE000-\uE005]/;

function hasMarker(s: string): boolean {
  return MARKER_RE.test(s);
}

/** Unique ids for heading markers in document order, and the toc (h2/h3 outside components). */
export function resolveHeadings(html: string, state: PageState, resolver: Resolver): { html: string; toc: TocEntry[] } {
  const toc: TocEntry[] = [];
  if (state.headings.length === 0) return { html, toc };
  const slugger = new Slugger();
  const ids = new Map<number, string>();
  const headingId = (index: number): string => {
    const known = ids.get(index);
    if (known !== undefined) return escapeHtml(known);
    const h = state.headings[index];
    if (!h) return '';
    const text = h.anchor ? '' : resolver.text(h.text).replace(SPACES_RE, ' ').trim();
    const id = h.custom ? h.base : slugger.unique(h.anchor ? h.base : slugify(text));
    ids.set(index, id);
    if (h.inToc && (h.depth === 2 || h.depth === 3)) toc.push({ id, text, depth: h.depth });
    // Mintlify's ids keep `&` and other characters that are not safe in an attribute as they are.
    return escapeHtml(id);
  };
  // Explicit ids are claimed first so an automatic slug never takes one, nor one of the layout's.
  for (const h of state.headings) if (h.custom) slugger.reserve(h.base);
  for (const id of LAYOUT_IDS) slugger.reserve(id);
  // Written into parts and joined once, as the Resolver does (a replace callback per field anchor made a rope).
  const parts: string[] = [];
  let at = 0;
  for (const m of html.matchAll(HEADING_RE)) {
    parts.push(html.slice(at, m.index), headingId(Number(m[1])));
    at = m.index + m[0].length;
  }
  parts.push(html.slice(at));
  return { html: parts.join(''), toc };
}

export function normaliseText(text: string): string {
  return text.replace(SPACES_RE, ' ').trim();
}
