import type { BuildWarning, PlannedPage, RenderFailure, SearchDocument } from '../types.js';

/** One task for a render worker: a batch of pages (small pages would drown in messaging one by one). */
export interface RenderBatchTask {
  /** JSON file holding the export's RenderContext, written once per export; workers cache it by path. */
  contextPath: string;
  pages: PlannedPage[];
  /** Raw-deflate each page in the worker (for the zip) at this zlib level; omitted → no compression. */
  deflateLevel?: number;
  /** Cut each page's search text to this many characters (the index stays small; see index-stage). */
  maxSearchText: number;
}

/** Where one page's bytes sit in the batch's single transferred buffer. */
export interface RenderedPageRef {
  slug: string;
  outputPath: string;
  htmlOffset: number;
  htmlLength: number;
  /** sha256 of the HTML (hex) for the manifest: hashing here keeps it off the main thread. */
  sha256: string;
  /** Raw-deflate stream of the HTML, when the task asked for it, with the CRC-32 of the HTML. */
  deflated?: { offset: number; length: number; crc32: number };
}

export interface RenderBatchResult {
  /** All pages' HTML (and deflated) bytes back to back: one transfer instead of one copy per page. */
  buffer: ArrayBuffer;
  pages: RenderedPageRef[];
  documents: SearchDocument[];
  warnings: BuildWarning[];
  failures: RenderFailure[];
}
