export { addToPartialIndex, emptyPartialIndex, packPartialIndex, type PackedPartialIndex, type PartialIndex } from './partial-index.js';
export { createShardedIndexBuilder, type ShardedIndexBuilder } from './sharded-index.js';
export { searchScopes, type SearchScope, type SearchScopes } from './scopes.js';

/**
 * Characters of body text indexed per page. Long reference pages (a 200-parameter API page) would
 * otherwise dominate the index; the title, headings and the first few thousand characters find a
 * page as well as its whole text does. Measured at 10,000 generated pages: see docs/renderer.md.
 */
export const MAX_SEARCH_TEXT = 2_000;
