import type { PackedPartialIndex } from '../index-stage/partial-index.js';
import type { LlmsEntry } from '../retrieval/types.js';
import type { BuildWarning, PlannedPage, RenderFailure } from '../types.js';
import type { ReadLog } from '../memo/read-log.js';

/** One task for a render worker: a batch of pages (small pages would drown in messaging one by one). */
export interface RenderBatchTask {
  /** JSON file holding the export's RenderContext, written once per export; workers cache it by path. */
  contextPath: string;
  pages: PlannedPage[];
  /** Position of the batch's first page in the plan: search-index document ids derive from it. */
  firstIndex: number;
  /** Raw-deflate each page in the worker (for the zip) at this zlib level; omitted → no compression. */
  deflateLevel?: number;
  /** Also return the uncompressed HTML (always, when not deflating). */
  keepHtml: boolean;
  /** Cut each page's search text to this many characters (the index stays small; see index-stage). */
  maxSearchText: number;
  /**
   * Sources to render in place of files on disk (repository path → text): the editor's preview
   * renders a page with its unsaved content through this same path (renderer/preview).
   */
  sources?: Record<string, string>;
  /** Record what the batch read of the repository (`reads`), so that its result can be reused (renderer/memo). */
  recordReads?: boolean;
}

/** Where one page's bytes sit in the batch's single buffer. */
export interface RenderedPageRef {
  slug: string;
  outputPath: string;
  /** Length of the HTML in bytes and its sha256 (hex), for the manifest: hashed here, off the main thread. */
  size: number;
  sha256: string;
  html?: { offset: number; length: number };
  /** Raw-deflate stream of the HTML, when the task asked for it, with the CRC-32 of the HTML. */
  deflated?: { offset: number; length: number; crc32: number };
  /** Reader access only: bundle URLs of the repository assets the page's content references. */
  assets?: string[];
  /** Reader access only: the page's HTML carries fragment markers (so the main thread need not read it back to know). */
  marked?: true;
}

/** A page's piece of a file that every batch adds to (renderer/retrieval/stage.ts). */
export interface PieceRef {
  raw: { offset: number; length: number };
}

/**
 * Per page, in plan order.
 */
export interface RetrievalPieces {
  sections: PieceRef[];
  llmsFull: PieceRef[];
  listed: LlmsEntry[];
}

export interface RenderBatchResult {
  /** All pages' bytes back to back: one message part instead of one per page (copied, see worker.ts). */
  buffer: ArrayBuffer;
  pages: RenderedPageRef[];
  /** Tokenised search documents of the batch's visible pages. */
  search: PackedPartialIndex;
  warnings: BuildWarning[];
  failures: RenderFailure[];
  /** Compiled component modules the batch's pages load (bundle path → code); see renderer/islands. */
  islandFiles?: Record<string, string>;
  /** `<path>.md` of each rendered page (renderer/retrieval): packed and hashed like the pages. */
  markdown?: RenderedPageRef[];
  /** The batch's pieces of the section index and llms-full.txt, and its llms.txt entries. */
  retrieval?: RetrievalPieces;
  /** With `recordReads`: the repository files the batch read and the paths it looked at. */
  reads?: ReadLog;
  /** Worker milliseconds spent per step for this batch (read, page, layout, hash, deflate, index). */
  cpu: Record<string, number>;
}
