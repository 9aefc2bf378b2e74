import type { SiteFiles } from '../write/site-files.js';
import { buildLlmsFullTxt, buildLlmsTxt } from './llms.js';
import { RETRIEVAL_FORMAT, RETRIEVAL_INDEX_PATH, type RetrievalIndexFile, type RetrievalPage } from './types.js';

export interface RetrievalStage {
  /** One batch's pages, in batch (plan) order. */
  add(pages: readonly RetrievalPage[] | undefined): void;
  /** Writes `<path>.md` per page, llms.txt, llms-full.txt and the section index into the bundle. */
  finish(site: SiteFiles, opts: { name: string; description?: string; domain?: string; indexing?: 'navigable' | 'all'; failed: ReadonlySet<string> }): void;
}

/**
 * The retrieval stage of the export (issue 21): gathers what the render workers produced per page
 * and writes the machine-readable forms of the site. Pages of the default (first) language and
 * version, in navigation order, make llms.txt and llms-full.txt, as the hosted platform does; the
 * section index keeps every language and version, each section tagged, so a reader's question is
 * answered from their own.
 */
export function createRetrievalStage(): RetrievalStage {
  const pages: RetrievalPage[] = [];
  return {
    add(batch) {
      if (batch) pages.push(...batch);
    },
    finish(site, opts) {
      const encoder = new TextEncoder();
      const rendered = pages.filter((p) => !opts.failed.has(p.slug));
      for (const p of rendered) {
        const file = `${p.slug}.md`;
        // Never two outputs at one path: a file the bundle already has there stays.
        if (!site.has(file)) site.add(file, encoder.encode(p.markdown));
      }
      const first = rendered.find((p) => !p.hidden);
      const listed = rendered.filter(
        (p) => (opts.indexing === 'all' || (!p.hidden && !p.noindex)) && p.language === first?.language && p.version === first?.version,
      );
      const origin = opts.domain && opts.domain !== 'localhost' ? `https://${opts.domain}` : '';
      const llmsSite = { name: opts.name, ...(opts.description ? { description: opts.description } : {}), origin };
      if (!site.has('llms.txt')) site.add('llms.txt', encoder.encode(buildLlmsTxt(llmsSite, listed)));
      if (!site.has('llms-full.txt')) site.add('llms-full.txt', encoder.encode(buildLlmsFullTxt(llmsSite, listed)));
      const index: RetrievalIndexFile = { format: RETRIEVAL_FORMAT, name: opts.name, sections: rendered.filter((p) => !p.hidden && !p.noindex).flatMap((p) => p.sections) };
      site.add(RETRIEVAL_INDEX_PATH, encoder.encode(JSON.stringify(index)));
    },
  };
}
