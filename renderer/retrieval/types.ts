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

/** What a render worker hands back per page for the retrieval stage (renderer/retrieval/stage.ts). */
export interface RetrievalPage {
  slug: string;
  title: string;
  description?: string;
  /** Left out of llms.txt (hidden from the navigation, or `noindex`); still searchable unless noindex. */
  hidden: boolean;
  noindex: boolean;
  language?: string;
  version?: string;
  /** The page as Markdown, as `<path>.md` serves it. */
  markdown: string;
  sections: RetrievalSection[];
}

/** Where the section index lives in the bundle (no leading slash), and its format version. */
export const RETRIEVAL_INDEX_PATH = '_retrieval/sections.json';
export const RETRIEVAL_FORMAT = 1;

export interface RetrievalIndexFile {
  format: typeof RETRIEVAL_FORMAT;
  /** The site's name (docs.json `name`), for the MCP server and the assistant's instructions. */
  name: string;
  sections: RetrievalSection[];
}
