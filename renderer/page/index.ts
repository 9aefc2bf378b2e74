/**
 * The "render a page" stage: one Mintlify-style MDX/Markdown source → PageContent.
 * Synchronous and self-contained so a piscina worker can call it for many pages in a row.
 */
import { Marked } from 'marked';
import type { PageContent, RenderContext } from '../types.js';
import { splitFrontmatter, stringField, titleFromFile } from './frontmatter.js';
import { htmlToText } from './html.js';

const marked = new Marked({ gfm: true, async: false });

export function renderPageContent(input: { file: string; source: string; ctx: RenderContext }): PageContent {
  const { file, source, ctx } = input;
  const { frontmatter, body } = splitFrontmatter(file, source);
  const html = marked.parse(body) as string;
  const title = stringField(frontmatter, 'title') ?? titleFromFile(file, ctx.config.name);
  const description = stringField(frontmatter, 'description');
  const mode = stringField(frontmatter, 'mode');
  return {
    title,
    ...(description === undefined ? {} : { description }),
    frontmatter,
    html,
    toc: [],
    text: htmlToText(html),
    ...(mode === undefined ? {} : { mode }),
    usesMath: false,
    usesMermaid: false,
    warnings: [],
  };
}
