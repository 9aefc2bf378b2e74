/** Messages between inflate-pool.ts and inflate-worker.ts. */
export interface InflateEntry {
  /** The checked, normalised entry name. */
  name: string;
  /** Absolute path to write (inside the extraction directory, parents already created). */
  target: string;
  /** Offset of the entry's local header in the archive. */
  offset: number;
  compressedSize: number;
  /** Declared uncompressed size; the real one must equal it. */
  size: number;
  /** 0 = stored, 8 = deflate. */
  method: 0 | 8;
}

export interface InflateBatch {
  id: number;
  entries: InflateEntry[];
}

export interface InflateReply {
  id: number;
  /** The entries written, in order (all of them unless `error`). */
  files: { name: string; size: number; sha256: string }[];
  /** The entry that failed; the rest of the batch was not attempted. */
  error?: { name: string; message: string };
}
