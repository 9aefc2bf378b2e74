import { pageHref } from '../page-urls.js';
import type { PageContent, PlannedPage, RenderContext } from '../types.js';
import { pageMarkdown } from './markdown.js';
import { pageSections } from './sections.js';
import type { RetrievalPage } from './types.js';

const divisions = new WeakMap<RenderContext, Map<string, { language?: string; version?: string }>>();

/** Language code and version name of each navigation section, from its division trail. */
function divisionOf(ctx: RenderContext, sectionId: string | undefined): { language?: string; version?: string } {
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

/** The retrieval stage's share of a rendered page, computed in the render worker beside the HTML. */
export function retrievalPage(page: PlannedPage, source: string, content: PageContent, ctx: RenderContext): RetrievalPage {
  const division = divisionOf(ctx, page.sectionId);
  const description = typeof content.description === 'string' && content.description.trim() ? content.description.trim() : undefined;
  return {
    slug: page.slug,
    title: content.title,
    ...(description ? { description } : {}),
    hidden: page.hidden,
    noindex: content.frontmatter['noindex'] === true,
    ...division,
    markdown: pageMarkdown({ title: content.title, ...(description ? { description } : {}), source, fallbackText: content.text }),
    sections: pageSections({ path: page.slug, url: pageHref(page.slug), title: content.title, ...division }, content.html),
  };
}
