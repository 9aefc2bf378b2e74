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

/**
 * Where the search index lives in the bundle (no leading slash): `scopes.json`, and per scope
 * `<key>/meta.json` plus content-hashed chunks (renderer/index-stage/sharded-index.ts). The fixed
 * names let search.js find them without knowing the build.
 */
export const SEARCH_ROOT = '_search/';
/** The same, as the URL search.js is given. */
export const SEARCH_BASE_URL = `/${SEARCH_ROOT}`;
