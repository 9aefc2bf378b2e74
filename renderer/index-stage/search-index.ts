import { SEARCH_INDEX_OPTIONS, SEARCH_INDEX_URL } from '../search-options.js';
import type { PartialIndex } from './partial-index.js';

export { addToPartialIndex, emptyPartialIndex, type PartialIndex } from './partial-index.js';

/** Where the index lives in the bundle (no leading slash). */
export const SEARCH_INDEX_PATH = SEARCH_INDEX_URL.replace(/^\//, '');

/**
 * Characters of body text indexed per page. Long reference pages (a 200-parameter API page) would
 * otherwise dominate the index; the title, headings and the first few thousand characters find a
 * page as well as its whole text does. Measured at 10,000 generated pages: see docs/renderer.md.
 */
export const MAX_SEARCH_TEXT = 2_000;

export interface SearchIndexBuilder {
  /** Merge one batch's partial index (call in a fixed batch order for a deterministic index). */
  add(partial: PartialIndex): void;
  readonly size: number;
  /** The serialised index in MiniSearch's JSON format (v2), for `MiniSearch.loadJSON` in the browser. */
  finish(): Uint8Array;
}

/**
 * Merges the workers' partial indexes into one MiniSearch index, written in MiniSearch's own
 * serialisation format. Building a MiniSearch instance on the main thread instead took 2.6 s for
 * 10,000 pages, all of it while the render workers needed the same cores.
 */
export function createSearchIndexBuilder(): SearchIndexBuilder {
  const fields = SEARCH_INDEX_OPTIONS.fields;
  const index = new Map<string, Record<number, Record<number, number>>>();
  const documentIds: Record<number, string> = {};
  const fieldLength: Record<number, number[]> = {};
  const storedFields: Record<number, Record<string, string>> = {};
  const seenUrls = new Set<string>();
  const lengthSums = fields.map(() => 0);
  const lengthCounts = fields.map(() => 0);
  let documentCount = 0;
  let nextId = 0;

  return {
    add(partial) {
      const skip = new Set<number>();
      for (const d of partial.docs) {
        // MiniSearch rejects duplicate ids; a page is rendered once, but stay safe.
        if (seenUrls.has(d.url)) {
          skip.add(d.id);
          continue;
        }
        seenUrls.add(d.url);
        documentIds[d.id] = d.url;
        fieldLength[d.id] = d.lengths;
        storedFields[d.id] = d.stored;
        d.lengths.forEach((n, f) => {
          lengthSums[f] = (lengthSums[f] ?? 0) + n;
          lengthCounts[f] = (lengthCounts[f] ?? 0) + 1;
        });
        documentCount++;
        nextId = Math.max(nextId, d.id + 1);
      }
      partial.terms.forEach((term, slot) => {
        let byField = index.get(term);
        if (byField === undefined) {
          byField = {};
          index.set(term, byField);
        }
        const flat = partial.postings[slot] as number[];
        for (let i = 0; i < flat.length; i += 3) {
          const docId = flat[i + 1] as number;
          if (skip.has(docId)) continue;
          const fieldId = flat[i] as number;
          (byField[fieldId] ??= {})[docId] = flat[i + 2] as number;
        }
      });
    },
    get size() {
      return documentCount;
    },
    finish() {
      const json = {
        documentCount,
        nextId,
        documentIds,
        fieldIds: Object.fromEntries(fields.map((f, i) => [f, i])),
        fieldLength,
        averageFieldLength: lengthSums.map((sum, f) => (lengthCounts[f] ? sum / (lengthCounts[f] as number) : 0)),
        storedFields,
        dirtCount: 0,
        index: [...index.entries()],
        serializationVersion: 2,
      };
      return new TextEncoder().encode(JSON.stringify(json));
    },
  };
}
