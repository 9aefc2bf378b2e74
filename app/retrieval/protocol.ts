import type { RetrievalSection } from '../../renderer/retrieval/types.js';
import type { IndexSummary } from './index-file.js';

export interface Scope {
  language?: string | undefined;
  version?: string | undefined;
}

/** A keyword match: the section's index in the bundle and its relevance in (0, 1], best first. */
export interface Hit {
  id: number;
  score: number;
}

/** What the main thread asks the retrieval thread, about the bundle at `root`. */
export type RetrievalRequest =
  | { op: 'open'; root: string }
  | { op: 'hits'; root: string; query: string; scope: Scope; limit: number }
  | { op: 'search'; root: string; query: string; scope: Scope; limit: number }
  | { op: 'sections'; root: string; ids: number[] }
  | { op: 'range'; root: string; offset: number; limit: number }
  | { op: 'scopeOf'; root: string; path: string }
  | { op: 'scopeMask'; root: string; scope: Scope }
  | { op: 'close'; root: string }
  /** Stop every index build and close every index: the thread is about to be terminated. */
  | { op: 'shutdown'; root?: undefined };

export interface RetrievalResults {
  open: IndexSummary;
  hits: Hit[];
  /** The best sections with their relevance: hits and their sections in one message. */
  search: (RetrievalSection & { score: number })[];
  sections: RetrievalSection[];
  range: RetrievalSection[];
  scopeOf: Scope | null;
  scopeMask: Uint8Array;
  close: null;
  shutdown: null;
}

export type RetrievalReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

export interface RetrievalWorkerData {
  cacheDir: string;
}
