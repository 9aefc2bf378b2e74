/**
 * The last pass: placeholders are replaced by their slots (recursively, each slot once), heading
 * markers become unique GitHub-style ids in document order, and the toc and plain text are built.
 */
import type { TocEntry } from '../types.js';
import { escapeHtml } from './html.js';
import { Slugger, slugify } from './slug.js';
import { BLOCK_CLOSE, BLOCK_OPEN, HEADING_CLOSE, HEADING_OPEN, INLINE_CLOSE, INLINE_OPEN, type PageState } from './state.js';

const SLOT_HTML_RE = new RegExp(`<p>\\s*${BLOCK_OPEN}(\\d+)${BLOCK_CLOSE}\\s*</p>\\n?|[${INLINE_OPEN}${BLOCK_OPEN}](\\d+)[${INLINE_CLOSE}${BLOCK_CLOSE}]`, 'g');
const SLOT_TEXT_RE = new RegExp(`[${INLINE_OPEN}${BLOCK_OPEN}](\\d+)[${INLINE_CLOSE}${BLOCK_CLOSE}]`, 'g');
const HEADING_RE = new RegExp(`${HEADING_OPEN}(\\d+)${HEADING_CLOSE}`, 'g');
// Runs of two or more, or any whitespace other than a plain space: single spaces are left alone.
const SPACES_RE = /\s{2,}|[^\S ]/g;

export class Resolver {
  private readonly htmlDone: (string | undefined)[] = [];
  /** A slot's text: where it was first written into a parts list, then the string once reused. */
  private readonly textDone: (TextRange | string | undefined)[] = [];

  constructor(private readonly state: PageState) {}

  html(fragment: string): string {
    if (!hasMarker(fragment)) return fragment;
    return fragment.replace(SLOT_HTML_RE, (_whole, blockId: string | undefined, id: string | undefined) => this.slotHtml(Number(blockId ?? id)));
  }

  /**
   * The plain text of a fragment with its slots' texts in place. Written into one list of parts
   * and joined once: nested replace callbacks made a rope of thousands of pieces that the
   * normalising regex then had to flatten (a tenth of a millisecond an API page).
   */
  text(fragment: string): string {
    if (!hasMarker(fragment)) return fragment;
    const parts: string[] = [];
    this.writeText(fragment, parts);
    return parts.join('');
  }

  private writeText(fragment: string, parts: string[]): void {
    let at = 0;
    for (const m of fragment.matchAll(SLOT_TEXT_RE)) {
      parts.push(fragment.slice(at, m.index));
      // Block slots are separate words; inline ones join the sentence they sit in.
      const block = m[0].charAt(0) === BLOCK_OPEN;
      if (block) parts.push(' ');
      this.writeSlotText(Number(m[1]), parts);
      if (block) parts.push(' ');
      at = m.index + m[0].length;
    }
    parts.push(fragment.slice(at));
  }

  private slotHtml(i: number): string {
    const done = this.htmlDone[i];
    if (done !== undefined) return done;
    this.htmlDone[i] = '';
    const out = this.html(this.state.slots[i]?.html ?? '');
    this.htmlDone[i] = out;
    return out;
  }

  /** Each slot is resolved once; a slot met again inside itself (a cycle) gives ''. */
  private writeSlotText(i: number, parts: string[]): void {
    const done = this.textDone[i];
    if (typeof done === 'string') {
      parts.push(done);
      return;
    }
    if (done !== undefined) {
      const text = done.parts.slice(done.start, done.end).join('');
      this.textDone[i] = text;
      parts.push(text);
      return;
    }
    const range: TextRange = { parts, start: parts.length, end: parts.length };
    this.textDone[i] = '';
    this.writeText(this.state.slots[i]?.text ?? '', parts);
    range.end = parts.length;
    this.textDone[i] = range;
  }
}

interface TextRange {
  parts: string[];
  start: number;
  end: number;
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
  // Explicit ids are claimed first so an automatic slug never takes one.
  for (const h of state.headings) if (h.custom) slugger.reserve(h.base);
  const out = html.replace(HEADING_RE, (_whole, k: string) => {
    const index = Number(k);
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
  });
  return { html: out, toc };
}

export function normaliseText(text: string): string {
  return text.replace(SPACES_RE, ' ').trim();
}
