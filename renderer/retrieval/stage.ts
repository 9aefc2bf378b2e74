import path from 'node:path';
import type { PieceRef, RetrievalPieces } from '../pool/batch.js';
import type { SiteFiles } from '../write/site-files.js';
import { SpooledFile } from '../write/spool.js';
import { agentInstructionsBlock } from './instructions.js';
import { buildLlmsTxt } from './llms.js';
import type { LlmsLinks } from './llms-links.js';
import { sectionIndexHeader } from './section-index.js';
import { RETRIEVAL_INDEX_PATH, type LlmsEntry } from './types.js';

export interface RetrievalStage {
  /** One batch's pieces, in batch (plan) order; `bytes` is the batch's buffer. */
  add(pieces: RetrievalPieces | undefined, bytes: Uint8Array): void;
  /**
   * Adds llms.txt, llms-full.txt and the section index to the bundle. Returns the paths whose
   * bytes are still in the stage's directory: the caller moves them (zip, output directory or
   * memory) before that directory goes.
   */
  finish(site: SiteFiles, opts: { description?: string; origin: string; links?: LlmsLinks }): Promise<string[]>;
  /** Stop writing (a failed export). */
  abort(): void;
}

/**
 * The retrieval stage of the export (issue 21), on the main thread. The render workers make each
 * page's Markdown (packed like the page), its sections and, for listed pages (the default
 * language and version, in navigation order, as the hosted platform lists them), its part of
 * llms-full.txt. Here the parts are appended in plan order to two spooled files (deflated on the
 * way when the export is zipped), so neither the
 * site's Markdown nor its sections are ever held in memory whole; llms.txt keeps one short entry
 * per listed page. The section index keeps every language and version, each section tagged, so a
 * reader's question is answered from their own.
 */
export function createRetrievalStage(opts: { dir: string; name: string; level: number | undefined; instructions?: string }): RetrievalStage {
  const encoder = new TextEncoder();
  const sections = new SpooledFile(path.join(opts.dir, 'sections.ndjson'), opts.level);
  sections.append(encoder.encode(sectionIndexHeader(opts.name)));
  const llmsFull = new SpooledFile(path.join(opts.dir, 'llms-full.txt'), opts.level);
  const instructions = agentInstructionsBlock(opts.instructions);
  if (instructions) llmsFull.append(encoder.encode(instructions));
  const listed: LlmsEntry[] = [];
  const slice = (bytes: Uint8Array, at: { offset: number; length: number }) => bytes.subarray(at.offset, at.offset + at.length);
  const append = (spool: SpooledFile, refs: readonly PieceRef[], bytes: Uint8Array): void => {
    for (const ref of refs) spool.append(slice(bytes, ref.raw));
  };
  return {
    add(pieces, bytes) {
      if (!pieces) return;
      append(sections, pieces.sections, bytes);
      append(llmsFull, pieces.llmsFull, bytes);
      listed.push(...pieces.listed);
    },
    async finish(site, o) {
      const llmsSite = { name: opts.name, ...(o.description ? { description: o.description } : {}), origin: o.origin, ...(instructions ? { instructions } : {}), ...(o.links ? { links: o.links } : {}) };
      if (!site.has('llms.txt')) site.add('llms.txt', encoder.encode(buildLlmsTxt(llmsSite, listed)));
      const spooled: string[] = [];
      for (const [file, spool] of [['llms-full.txt', llmsFull], [RETRIEVAL_INDEX_PATH, sections]] as const) {
        const done = await spool.finish();
        // Never two outputs at one path: a file of the repository's own stays.
        if (site.has(file)) continue;
        if (done.deflated) site.addSpooled(file, done);
        else site.addFromDisk(file, done);
        spooled.push(file);
      }
      return spooled;
    },
    abort() {
      sections.abort();
      llmsFull.abort();
    },
  };
}
