import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { readRepoFile, RepoFileError } from '../repo-files.js';
import type { RenderBatchResult, RenderBatchTask } from '../pool/batch.js';
import { probeState, sha256, type ReadLog } from './read-log.js';
import { rendererId } from './renderer-id.js';

/** Bumped when the entry layout changes: older entries are then never read. */
const FORMAT = 'render-memo/2';
const BATCH_SUFFIX = '.batch';
const TEXT_SUFFIX = '.text';

export interface MemoStats {
  pagesReused: number;
  pagesRendered: number;
}

/** A batch's task without what differs between two exports of the same inputs (the context file's path). */
export type BatchInputs = Omit<RenderBatchTask, 'contextPath' | 'recordReads' | 'sources'>;

/**
 * An entry: this as JSON, then the batch's bytes, then the search index's two integer arrays
 * (JSON would write a typed array as an object of numbered keys, slowly, and read it back as one).
 */
interface StoredBatch {
  format: string;
  reads: ReadLog;
  result: Omit<RenderBatchResult, 'buffer' | 'reads' | 'cpu' | 'search'> & { search: Omit<RenderBatchResult['search'], 'offsets' | 'postings'> };
  /** Byte lengths of the three parts after the JSON. */
  lengths: { buffer: number; offsets: number; postings: number };
}

/**
 * Results of earlier exports of one site, reused when nothing they depended on changed (issue 43,
 * incremental publish; docs/renderer.md, "Render memo"). A batch's result is stored under the
 * hash of everything it was given (the renderer's build, the export's context, the batch's task)
 * with what the worker observed of the repository while rendering it (renderer/memo/read-log.ts);
 * a later export reuses it only if the same key comes up and the repository still gives every one
 * of those observations. The result is then byte for byte what rendering again would return, so
 * an export with the memo equals one without (a property test edits a repository at random and
 * compares). The Tailwind stylesheet is kept by its file name, which is already a hash of its input.
 *
 * One directory per site; after an export that succeeded, `prune` leaves only what it used, so
 * the directory holds one export's worth.
 */
export class RenderMemo {
  private readonly used = new Set<string>();
  private readonly observed = new Map<string, string>();
  readonly stats: MemoStats = { pagesReused: 0, pagesRendered: 0 };
  /** The directory cannot be made (a file in its place, no permission, a full disk): every batch is rendered. */
  private readonly unusable: boolean;

  constructor(
    private readonly dir: string,
    private readonly repoRoot: string,
    private readonly contextHash: string,
  ) {
    let unusable = false;
    try {
      fs.mkdirSync(dir, { recursive: true });
    } catch {
      unusable = true;
    }
    this.unusable = unusable;
  }

  batchKey(inputs: BatchInputs): string {
    return createHash('sha256').update(`${FORMAT}\n${rendererId()}\n${this.contextHash}\n`).update(JSON.stringify(inputs)).digest('hex');
  }

  /** The stored result for `key`, if its repository observations still hold; undefined otherwise. */
  load(key: string, pages: number): RenderBatchResult | undefined {
    if (this.unusable) return undefined;
    const file = path.join(this.dir, key + BATCH_SUFFIX);
    let raw: Buffer;
    try {
      raw = fs.readFileSync(file);
    } catch {
      return undefined;
    }
    const stored = decode(raw);
    if (!stored || stored.entry.format !== FORMAT) return undefined;
    for (const [what, seen] of Object.entries(stored.entry.reads)) if (this.observe(what) !== seen) return undefined;
    this.used.add(key + BATCH_SUFFIX);
    this.stats.pagesReused += pages;
    const { lengths, result } = stored.entry;
    if (lengths.buffer + lengths.offsets + lengths.postings !== stored.bytes.length) return undefined;
    // Own ArrayBuffers (aligned for the Int32Arrays): the export hands them on as the worker's would be.
    const part = (from: number, length: number): ArrayBuffer => {
      const out = new ArrayBuffer(length);
      new Uint8Array(out).set(stored.bytes.subarray(from, from + length));
      return out;
    };
    const offsets = new Int32Array(part(lengths.buffer, lengths.offsets));
    const postings = new Int32Array(part(lengths.buffer + lengths.offsets, lengths.postings));
    return { ...result, search: { ...result.search, offsets, postings }, buffer: part(0, lengths.buffer), cpu: {} };
  }

  /** Keep a freshly rendered result (one with failures is not kept: it is rendered again next time). */
  save(key: string, result: RenderBatchResult, pages: number): void {
    this.stats.pagesRendered += pages;
    if (this.unusable || !result.reads || result.failures.length > 0) return;
    const { buffer, reads, cpu: _cpu, search, ...rest } = result;
    const { offsets, postings, ...words } = search;
    const parts = [new Uint8Array(buffer), new Uint8Array(offsets.buffer, offsets.byteOffset, offsets.byteLength), new Uint8Array(postings.buffer, postings.byteOffset, postings.byteLength)];
    const entry: StoredBatch = { format: FORMAT, reads, result: { ...rest, search: words }, lengths: { buffer: parts[0]!.length, offsets: parts[1]!.length, postings: parts[2]!.length } };
    this.write(key + BATCH_SUFFIX, encode(entry, parts));
  }

  /** A text output stored by a name that is a hash of its inputs (the Tailwind stylesheet), for this build of the renderer. */
  text(name: string): string | undefined {
    if (this.unusable) return undefined;
    const file = path.join(this.dir, textName(name));
    try {
      const text = fs.readFileSync(file, 'utf8');
      this.used.add(path.basename(file));
      return text;
    } catch {
      return undefined;
    }
  }

  saveText(name: string, text: string): void {
    if (this.unusable) return;
    this.write(textName(name), Buffer.from(text, 'utf8'));
  }

  /** After a successful export: drop every entry it did not use or write. */
  prune(): void {
    if (this.unusable) return;
    try {
      for (const name of fs.readdirSync(this.dir)) if (!this.used.has(name)) fs.rmSync(path.join(this.dir, name), { force: true, recursive: true });
    } catch {
      // What is left is pruned after the next export that can.
    }
  }

  private write(name: string, bytes: Uint8Array): void {
    this.used.add(name);
    const tmp = path.join(this.dir, `.${name}.${process.pid}.tmp`);
    try {
      fs.writeFileSync(tmp, bytes);
      fs.renameSync(tmp, path.join(this.dir, name));
    } catch {
      // A full disk or a read-only cache costs the next export its reuse, never this one its output.
      fs.rmSync(tmp, { force: true });
      this.used.delete(name);
    }
  }

  /** What the repository gives now for one recorded observation (computed once per export). */
  private observe(what: string): string {
    let seen = this.observed.get(what);
    if (seen !== undefined) return seen;
    const cut = what.indexOf(':');
    const kind = what.slice(0, cut);
    const rel = what.slice(cut + 1);
    seen = kind === 'probe' ? probeState(this.repoRoot, rel) : kind === 'read' ? this.readHash(rel) : `?${what}`;
    this.observed.set(what, seen);
    return seen;
  }

  private readHash(rel: string): string {
    try {
      return sha256(readRepoFile(this.repoRoot, rel));
    } catch (err) {
      return err instanceof RepoFileError ? `!${err.problem}` : '!error';
    }
  }
}

const textName = (name: string): string => createHash('sha256').update(`${FORMAT}\n${rendererId()}\n${name}`).digest('hex') + TEXT_SUFFIX;

function encode(entry: StoredBatch, parts: Uint8Array[]): Buffer {
  const json = Buffer.from(JSON.stringify(entry), 'utf8');
  const head = Buffer.alloc(4);
  head.writeUInt32LE(json.length, 0);
  return Buffer.concat([head, json, ...parts]);
}

function decode(raw: Buffer): { entry: StoredBatch; bytes: Uint8Array } | undefined {
  try {
    if (raw.length < 4) return undefined;
    const length = raw.readUInt32LE(0);
    if (4 + length > raw.length) return undefined;
    const entry = JSON.parse(raw.subarray(4, 4 + length).toString('utf8')) as StoredBatch;
    return { entry, bytes: raw.subarray(4 + length) };
  } catch {
    // A torn or foreign file is a miss, not an error.
    return undefined;
  }
}
