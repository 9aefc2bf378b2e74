import { ANONYMOUS, wrap } from '../access/contract.js';
import { filterMarked } from '../access/filter.js';
import { pageHref } from '../page-urls.js';
import type { PageContent, PlannedPage, RenderContext } from '../types.js';
import { apiMarkdownSection } from './api-markdown.js';
import { agentInstructionsBlock } from './instructions.js';
import { llmsFullPart } from './llms.js';
import { pageMarkdown } from './markdown.js';
import { sectionLine } from './section-index.js';
import { pageSections } from './sections.js';
import type { LlmsEntry, RetrievalSettings } from './types.js';

const divisions = new WeakMap<Pick<RenderContext, 'sections'>, Map<string, { language?: string; version?: string }>>();

/** Language code and version name of each navigation section, from its division trail. */
export function divisionOf(ctx: Pick<RenderContext, 'sections'>, sectionId: string | undefined): { language?: string; version?: string } {
  let bySection = divisions.get(ctx);
  if (!bySection) {
    bySection = new Map();
    for (const s of ctx.sections) {
      const language = s.trail.find((t) => t.kind === 'language')?.title;
      const version = s.trail.find((t) => t.kind === 'version')?.title;
      bySection.set(s.id, { ...(language ? { language } : {}), ...(version ? { version } : {}) });
    }
    divisions.set(ctx, bySection);
  }
  return (sectionId && bySection.get(sectionId)) || {};
}

/**
 * Whether a navigation section is in the division (language, version) llms.txt and llms-full.txt
 * list: the one of the navigation's first visible page (pipeline.ts sets it in `ctx.retrieval`).
 */
export function inListedDivision(ctx: Pick<RenderContext, 'sections'>, settings: Pick<RetrievalSettings, 'language' | 'version'>, sectionId: string | undefined): boolean {
  const d = divisionOf(ctx, sectionId);
  return d.language === settings.language && d.version === settings.version;
}

/** What one page hands the retrieval stage. */
export interface RetrievalPageText {
  /** The page as Markdown, served at `<path>.md`. */
  markdown: string;
  /** Its lines of the section index ('' for a hidden or noindex page). */
  sections: string;
  /** Its part of llms-full.txt and its llms.txt entry, when the page is listed. */
  llmsFull: string;
  listed?: LlmsEntry;
}

/**
 * The retrieval stage's share of a page, made in the render worker beside the HTML: its Markdown,
 * its sections and, when the page is listed, its part of llms-full.txt and its llms.txt entry.
 */
export function retrievalText(ctx: RenderContext, settings: RetrievalSettings, page: PlannedPage, source: string, content: PageContent): RetrievalPageText {
  const division = divisionOf(ctx, page.sectionId);
  const description = typeof content.description === 'string' && content.description.trim() ? content.description.trim() : undefined;
  const noindex = content.frontmatter['noindex'] === true;
  const apiSection = apiMarkdownSection(page.api, ctx.apiDocs, ctx.readerAccess === true);
  const markdown = pageMarkdown({ title: content.title, ...(description ? { description } : {}), source, fallbackText: content.text, ...(apiSection ? { apiSection } : {}) });
  let sections = '';
  if (!page.hidden && !noindex) {
    // Group-dependent fragments (reader access) stay out of the section texts: a section line
    // cannot be cut per reader, so search and the assistant see what every reader may see.
    const html = ctx.readerAccess === true ? filterMarked(content.html, ANONYMOUS) : content.html;
    for (const s of pageSections({ path: page.slug, url: pageHref(page.slug), title: content.title, ...division }, html, content.apiExamples)) sections += sectionLine(s);
  }
  const listed = (settings.indexing === 'all' || (!page.hidden && !noindex)) && inListedDivision(ctx, settings, page.sectionId);
  // The instructions head the page's own Markdown; llms-full.txt carries them once, at its top.
  const file = agentInstructionsBlock(ctx.config.markdown?.instructions) + markdown;
  if (!listed) return { markdown: file, sections, llmsFull: '' };
  const entry: LlmsEntry = { slug: page.slug, title: content.title, ...(description ? { description } : {}) };
  const part = llmsFullPart(settings.origin, { ...entry, markdown });
  // Reader access: a restricted page's entries are fragments only its readers receive.
  const req = ctx.pageAccess?.[page.slug];
  if (req && req !== 'public') return { markdown: file, sections, llmsFull: wrap(req, part), listed: { ...entry, requirement: req } };
  return { markdown: file, sections, llmsFull: part, listed: entry };
}
