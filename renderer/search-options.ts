/**
 * The one definition of how the site search index is built (index stage, Node) and loaded
 * (search.js, browser). Both sides must agree exactly or MiniSearch.loadJSON rejects the index,
 * so the browser copy in renderer/assets/client/search.js is checked against this in a test.
 */
export const SEARCH_INDEX_OPTIONS = {
  idField: 'url',
  fields: ['title', 'headings', 'text'],
  storeFields: ['title', 'url', 'section'],
  searchOptions: { boost: { title: 3, headings: 2 }, prefix: true, fuzzy: 0.2 },
} as const;

/** Fixed (not content-hashed) so search.js can find it without knowing the build. */
export const SEARCH_INDEX_URL = '/_search/index.json';
