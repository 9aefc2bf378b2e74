import MiniSearch, { type Options } from 'minisearch';
import { SEARCH_INDEX_OPTIONS, SEARCH_INDEX_URL } from '../search-options.js';
import type { SearchDocument } from '../types.js';

/** Where the index lives in the bundle (no leading slash). */
export const SEARCH_INDEX_PATH = SEARCH_INDEX_URL.replace(/^\//, '');

/**
 * Characters of body text indexed per page. Long reference pages (a 200-parameter API page) would
 * otherwise dominate the index; the title, headings and the first few thousand characters find a
 * page as well as its whole text does. Measured at 10,000 generated pages: see docs/renderer.md.
 */
export const MAX_SEARCH_TEXT = 3_000;

export interface SearchIndexBuilder {
  /** Add documents as render batches complete, so indexing overlaps with rendering. */
  add(documents: readonly SearchDocument[]): void;
  readonly size: number;
  /** The serialised index (MiniSearch JSON), ready for `MiniSearch.loadJSON` in the browser. */
  finish(): Uint8Array;
}

export function createSearchIndexBuilder(): SearchIndexBuilder {
  const index = new MiniSearch<SearchDocument>(SEARCH_INDEX_OPTIONS as unknown as Options<SearchDocument>);
  const seen = new Set<string>();
  return {
    add(documents) {
      for (const d of documents) {
        // A page listed twice in the navigation is rendered once, but guard anyway: MiniSearch throws on duplicate ids.
        if (seen.has(d.url)) continue;
        seen.add(d.url);
        index.add(d);
      }
    },
    get size() {
      return seen.size;
    },
    finish() {
      return new TextEncoder().encode(JSON.stringify(index));
    },
  };
}

/** Build in one go (tests, small sites). */
export function buildSearchIndex(documents: readonly SearchDocument[]): Uint8Array {
  const b = createSearchIndexBuilder();
  b.add(documents);
  return b.finish();
}
