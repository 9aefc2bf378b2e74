import { SEARCH_INDEX_OPTIONS } from '../search-options.js';
import type { SearchDocument } from '../types.js';

/**
 * The expensive half of search indexing (tokenising every page and counting terms) done in the
 * render workers, in parallel, so the main thread only merges counts. The tokenizer and term
 * processing are MiniSearch's defaults, reproduced exactly (the browser loads the result with
 * `MiniSearch.loadJSON` and tokenises queries the same way); a test checks the output against
 * MiniSearch's own.
 */

/** MiniSearch's default tokenizer splits on this. */
export const SPACE_OR_PUNCTUATION = /[\n\r\p{Z}\p{P}]+/u;
/**
 * The same class restricted to ASCII (\p{Z} is only the space there, and $+<=>^`|~ are symbols, not
 * punctuation), about twice as fast as the Unicode-property regex; used when the text is ASCII.
 */
export const ASCII_SPACE_OR_PUNCTUATION = /[\n\r !"#%&'()*,\-./:;?@[\\\]_{}]+/;
const NON_ASCII = /[^\x00-\x7f]/;

export function tokenize(text: string): string[] {
  return text.split(NON_ASCII.test(text) ? SPACE_OR_PUNCTUATION : ASCII_SPACE_OR_PUNCTUATION);
}

export interface PartialIndexDoc {
  /** MiniSearch short id: the page's position in the plan, so ids do not depend on timing. */
  id: number;
  url: string;
  stored: Record<string, string>;
  /** Unique-token count per field id (MiniSearch's field length). */
  lengths: number[];
}

export interface PartialIndex {
  docs: PartialIndexDoc[];
  /** Terms of this batch, first-seen order. */
  terms: string[];
  /** Per term: flat triples (fieldId, doc id, term frequency). */
  postings: number[][];
}

export function emptyPartialIndex(): PartialIndex {
  return { docs: [], terms: [], postings: [] };
}

/**
 * A batch's partial index as it crosses to the main thread: every term's postings in one typed
 * array (term k's triples lie between offsets[k] and offsets[k + 1]). The structured clone copies
 * it in one piece instead of building thousands of small arrays on the main thread, which left
 * them to its garbage collector while the workers rendered on.
 */
export interface PackedPartialIndex {
  docs: PartialIndexDoc[];
  terms: string[];
  offsets: Int32Array;
  postings: Int32Array;
}

export function packPartialIndex(partial: PartialIndex): PackedPartialIndex {
  const offsets = new Int32Array(partial.terms.length + 1);
  let total = 0;
  partial.postings.forEach((list, k) => {
    offsets[k] = total;
    total += list.length;
  });
  offsets[partial.terms.length] = total;
  const postings = new Int32Array(total);
  partial.postings.forEach((list, k) => postings.set(list, offsets[k] as number));
  return { docs: partial.docs, terms: partial.terms, offsets, postings };
}

export function addToPartialIndex(partial: PartialIndex, id: number, doc: SearchDocument, termSlots: Map<string, number>): void {
  const stored: Record<string, string> = {};
  for (const name of SEARCH_INDEX_OPTIONS.storeFields) {
    const v = doc[name as keyof SearchDocument];
    if (v !== undefined) stored[name] = v;
  }
  const lengths: number[] = [];
  SEARCH_INDEX_OPTIONS.fields.forEach((field, fieldId) => {
    const value = doc[field as keyof SearchDocument];
    if (value == null) return;
    // Counted by token first, then by term: a page repeats its words, so each distinct token is
    // lowercased once instead of at every occurrence. The terms keep their first-seen order.
    const byToken = new Map<string, number>();
    for (const token of tokenize(value.toString())) byToken.set(token, (byToken.get(token) ?? 0) + 1);
    // MiniSearch's field length: distinct tokens before processing, the empty one included.
    lengths[fieldId] = byToken.size;
    const counts = new Map<string, number>();
    for (const [token, n] of byToken) {
      const term = token.toLowerCase();
      if (term) counts.set(term, (counts.get(term) ?? 0) + n);
    }
    for (const [term, tf] of counts) {
      let slot = termSlots.get(term);
      if (slot === undefined) {
        slot = partial.terms.length;
        termSlots.set(term, slot);
        partial.terms.push(term);
        partial.postings.push([]);
      }
      (partial.postings[slot] as number[]).push(fieldId, id, tf);
    }
  });
  partial.docs.push({ id, url: doc.url, stored, lengths });
}
