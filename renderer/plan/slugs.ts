/** Page file and URL naming, shared by every stage that turns a slug into a path or link. */

export const PAGE_EXTENSIONS = ['.mdx', '.md'] as const;

/** Snippet folders hold fragments that pages import; they are never pages themselves. */
export function isSnippetPath(file: string): boolean {
  return /^(?:.*\/)?_?snippets\//.test(file);
}

/**
 * Instructions for coding agents (Claude Code's `CLAUDE.md`, the `AGENTS.md` convention, Gemini's
 * `GEMINI.md`), at any depth, any case. Mintlify's agent docs treat a published root `AGENTS.md`
 * as an exposure to avoid (move it to `.mintlify/` or `.mintignore` it): these files instruct
 * tools, they are not documentation, so they are not pages unless the navigation lists them.
 */
export function isAgentInstructionFile(file: string): boolean {
  return /(?:^|\/)(?:claude|agents|gemini)\.mdx?$/i.test(file);
}

export function isPageFile(file: string): boolean {
  return (file.endsWith('.mdx') || file.endsWith('.md')) && !isSnippetPath(file) && !isAgentInstructionFile(file);
}

/** An agent instruction file the navigation lists by name is a page all the same: the author asked for it. */
export function isListedAgentInstructionPage(file: string, listed: ReadonlySet<string>): boolean {
  return isAgentInstructionFile(file) && !isSnippetPath(file) && listed.has(slugForFile(file));
}

/**
 * A Markdown file in a `snippets/` folder below the root that the navigation lists by name: a
 * page, as on Mintlify, where only the root `/snippets/` folder is always fragments (BAML's
 * `docs/snippets/syntax/strings` is a page of its "BAML Snippets" group).
 */
export function isListedNestedSnippetPage(file: string, listed: ReadonlySet<string>): boolean {
  return (file.endsWith('.mdx') || file.endsWith('.md')) && isSnippetPath(file) && !/^_?snippets\//.test(file) && listed.has(slugForFile(file));
}

/** `guides/intro.mdx` → `guides/intro`; `guides/index.mdx` → `guides`; `index.mdx` → `index`. */
export function slugForFile(file: string): string {
  const noExt = file.replace(/\.mdx?$/, '');
  if (noExt === 'index') return 'index';
  return noExt.endsWith('/index') ? noExt.slice(0, -'/index'.length) : noExt;
}

/** A navigation reference (`/guides/intro`, `guides/intro.mdx`, `guides/`) → the slug it names. */
export function normaliseRef(ref: string): string {
  let s = ref.trim().replace(/[?#].*$/, '').replace(/^\.?\/+/, '').replace(/\/+$/, '');
  s = s.replace(/\.mdx?$/, '');
  if (s === '' || s === 'index') return 'index';
  return s.endsWith('/index') ? s.slice(0, -'/index'.length) : s;
}

/** Used for section ids: lower-case words joined by `-`. */
export function slugify(text: string): string {
  const s = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return s === '' ? 'section' : s;
}

/** `getting-started_guide` → `Getting started guide`: the title of a page that has none. */
export function titleFromSlug(slug: string): string {
  const last = slug.split('/').pop() ?? slug;
  const words = last.replace(/[-_]+/g, ' ').trim();
  return words === '' ? 'Home' : words.charAt(0).toUpperCase() + words.slice(1);
}
