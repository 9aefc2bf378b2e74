/** One heading's part of a page: what the assistant, the MCP server and the discovery API retrieve. */
export interface RetrievalSection {
  /** Page path without leading slash (`guides/intro`; the home page is `index`). */
  path: string;
  /** Reader URL of the section: the page's URL, with `#anchor` for a section under a heading. */
  url: string;
  /** The page's title. */
  title: string;
  /** The heading the text sits under (the page title for the part before the first heading). */
  heading: string;
  text: string;
  /** Language code and version name of the navigation division the page belongs to, when any. */
  language?: string;
  version?: string;
}

/** A page's line in llms.txt. */
export interface LlmsEntry {
  slug: string;
  title: string;
  description?: string;
  /** Reader access: set (never 'public') when only some readers may see the page; its line is wrapped in markers. */
  requirement?: import('../access/contract.js').Requirement;
}

/**
 * What the render workers need to know of the whole export to write their share of llms.txt and
 * llms-full.txt: the site's origin for the links and which pages are listed (the division of the
 * navigation's first visible page: its language and version, as the hosted platform lists them).
 */
export interface RetrievalSettings {
  origin: string;
  indexing: 'navigable' | 'all';
  language?: string;
  version?: string;
}

/**
 * Where the section index lives in the bundle (no leading slash), and its format version. Format 2
 * is NDJSON: a header line `{"format":2,"name":…}`, then one RetrievalSection per line, so the
 * export appends the render workers' pieces as they come instead of holding every section to
 * serialise one document at the end. Bundles made before it carry format 1 (one JSON document) at
 * the legacy path; the assistant reads either.
 */
export const RETRIEVAL_INDEX_PATH = '_retrieval/sections.ndjson';
export const RETRIEVAL_FORMAT = 2;
export const LEGACY_RETRIEVAL_INDEX_PATH = '_retrieval/sections.json';
export const LEGACY_RETRIEVAL_FORMAT = 1;
