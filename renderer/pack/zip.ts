import fs from 'node:fs';
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import { Zip, type ZipInputFile } from 'fflate';
import type { ArchiveRef, Predeflated, SiteFiles } from '../write/site-files.js';

const deflateRaw = promisify(zlib.deflateRaw);

/** Formats that are compressed already: deflating them again costs time and saves nothing. */
const STORED = /\.(?:png|jpe?g|gif|webp|avif|ico|woff2?|zip|gz|tgz|bz2|xz|7z|mp4|webm|mov|mp3|ogg|m4a|pdf)$/i;

/** Flush to the file once this much zip output has gathered. */
const FLUSH_BYTES = 4 * 1024 * 1024;

/**
 * DOS timestamps have no time zone and fflate reads a Date's local fields; building the Date from
 * createdAt's UTC fields makes the stored time the same on every machine, so equal input gives
 * equal bytes whatever TZ the export ran in.
 */
function dosTime(createdAt: Date): Date {
  const t = new Date(Math.max(createdAt.getTime(), Date.UTC(1980, 0, 1)));
  return new Date(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate(), t.getUTCHours(), t.getUTCMinutes(), t.getUTCSeconds());
}

/** An entry whose bytes are final already (deflated in a worker, or stored): fflate only frames it. */
function addPrepared(zip: Zip, filename: string, data: Uint8Array, meta: { size: number; crc: number; compression: 0 | 8; mtime: Date }): void {
  const entry: ZipInputFile = { filename, size: meta.size, crc: meta.crc, compression: meta.compression, mtime: meta.mtime };
  zip.add(entry);
  (entry.ondata as NonNullable<ZipInputFile['ondata']>)(null, data as Uint8Array<ArrayBuffer>, true);
}

/**
 * Deflated copies of big files that recur in every export of this process (the theme: mermaid.js
 * alone is 2.5 MB and takes ~100 ms to deflate), keyed by content hash and level. Bounded.
 */
const deflateCache = new Map<string, Predeflated>();
const CACHE_MIN_BYTES = 64 * 1024;
const CACHE_MAX_ENTRIES = 64;

function preparedEntry(site: SiteFiles, path: string, level: number): Predeflated & { compression: 0 | 8 } {
  const pre = site.deflated(path);
  if (pre) return { ...pre, compression: 8 };
  const bytes = site.bytes(path);
  if (STORED.test(path) || bytes.length < 64) return { data: bytes, crc32: zlib.crc32(bytes) >>> 0, compression: 0 };
  const key = bytes.length >= CACHE_MIN_BYTES ? `${level}:${site.sha256(path)}` : undefined;
  const cached = key ? deflateCache.get(key) : undefined;
  if (cached) return { ...cached, compression: 8 };
  const made = { data: new Uint8Array(zlib.deflateRawSync(bytes, { level })), crc32: zlib.crc32(bytes) >>> 0 };
  if (key) remember(key, made);
  return { ...made, compression: 8 };
}

function remember(key: string, made: Predeflated): void {
  if (deflateCache.size >= CACHE_MAX_ENTRIES) deflateCache.delete(deflateCache.keys().next().value as string);
  deflateCache.set(key, made);
}

/** Files at least this big that still need deflating are deflated on libuv's threads, side by side. */
const ASYNC_DEFLATE_BYTES = 256 * 1024;

/**
 * A zip written to disk while the export runs: pages go in as soon as their batch is final (in
 * plan order, so the bytes do not depend on which worker finished first), the rest of the site at
 * the end in path order. Packing thus overlaps rendering instead of following it, and output goes
 * to the file in 4 MB writes: the zip is never held whole in memory beside the site.
 *
 * Pages arrive deflated by the render workers and are only framed here; the rest is deflated with
 * zlib (native, several times faster than a JS deflate) unless it is an already-compressed format.
 * The zip is written beside its target and renamed by `finish()`: a reader never sees half a zip,
 * and `abort()` (or a failure) leaves nothing behind.
 */
export class ZipWriter {
  private readonly zip: Zip;
  private readonly written = new Set<string>();
  /** Where each entry's compressed bytes start in the file, and how many there are. */
  private readonly located = new Map<string, { offset: number; length: number; crc32: number }>();
  /** The file the entries are in: the partial file, then (after finish) the zip itself. */
  readonly archive: ArchiveRef;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private total = 0;
  private failure: Error | undefined;
  /** Writes are chained so they land in order while framing goes on synchronously. */
  private writing: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly handle: fs.promises.FileHandle,
    private readonly partial: string,
    private readonly zipPath: string,
    private readonly mtime: Date,
    private readonly level: number,
  ) {
    this.archive = { path: partial };
    this.zip = new Zip((err, chunk) => {
      if (err) this.failure = err;
      else {
        this.pending.push(chunk);
        this.pendingBytes += chunk.length;
      }
    });
  }

  static async open(zipPath: string, options: { createdAt: Date; level?: number }): Promise<ZipWriter> {
    const partial = `${zipPath}.partial-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    const handle = await fs.promises.open(partial, 'w');
    return new ZipWriter(handle, partial, zipPath, dosTime(options.createdAt), options.level ?? 6);
  }

  has(path: string): boolean {
    return this.written.has(path);
  }

  /** Frame one file of the site now (deflating it here if the workers did not). */
  add(site: SiteFiles, path: string, prepared?: Predeflated & { compression: 0 | 8 }): void {
    if (this.failure) throw this.failure;
    const entry = prepared ?? preparedEntry(site, path, this.level);
    // fflate emits the entry at once (its data is final): a 30-byte local header, the name, the data.
    const start = this.total + this.pendingBytes;
    addPrepared(this.zip, path, entry.data, { size: site.size(path), crc: entry.crc32, compression: entry.compression, mtime: this.mtime });
    this.written.add(path);
    if (entry.compression === 8) this.located.set(path, { offset: start + 30 + Buffer.byteLength(path), length: entry.data.length, crc32: entry.crc32 });
    if (this.failure) throw this.failure;
    if (this.pendingBytes >= FLUSH_BYTES) this.flush();
  }

  /**
   * Frame the given files in order. The big ones that still need deflating (the search index, the
   * manifest) are deflated first, concurrently, on libuv's threads instead of one after another on
   * the main thread.
   */
  async addAll(site: SiteFiles, paths: string[], signal?: AbortSignal): Promise<void> {
    const early = new Map<string, Promise<Predeflated & { compression: 0 | 8 }>>();
    for (const path of paths) {
      if (site.deflated(path) || STORED.test(path) || site.size(path) < ASYNC_DEFLATE_BYTES) continue;
      const bytes = site.bytes(path);
      const key = `${this.level}:${site.sha256(path)}`;
      const cached = deflateCache.get(key);
      if (cached) continue;
      early.set(
        path,
        deflateRaw(bytes, { level: this.level }).then((out) => {
          const made = { data: new Uint8Array(out.buffer, out.byteOffset, out.length), crc32: zlib.crc32(bytes) >>> 0 };
          remember(key, made);
          return { ...made, compression: 8 as const };
        }),
      );
    }
    // Every promise gets a handler at once: one failing while an earlier one is awaited must not
    // surface as an unhandled rejection.
    for (const p of early.values()) p.catch(() => undefined);
    for (const path of paths) {
      signal?.throwIfAborted();
      const ready = early.get(path);
      const before = this.total;
      this.add(site, path, ready ? await ready : undefined);
      // A flush just went out: let it land before framing more (bounded memory).
      if (this.total !== before) await this.writing;
    }
  }

  /** Where a deflated entry's bytes lie in `archive` (once `drain()` has written them). */
  locate(path: string): { archive: ArchiveRef; offset: number; length: number; crc32: number } | undefined {
    const at = this.located.get(path);
    return at ? { archive: this.archive, ...at } : undefined;
  }

  /** Write out everything framed so far, so that entries can be read back from the file. */
  async drain(): Promise<void> {
    this.flush();
    await this.writing;
    if (this.failure) throw this.failure;
  }

  private flush(): void {
    if (this.pendingBytes === 0) return;
    const out = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    this.total += out.length;
    this.writing = this.writing.then(async () => {
      await this.handle.write(out, 0, out.length);
    });
    this.writing.catch((err: unknown) => {
      this.failure ??= err instanceof Error ? err : new Error(String(err));
    });
  }

  /** End the zip, wait for every write, and move it into place. */
  async finish(): Promise<{ sizeBytes: number }> {
    try {
      this.zip.end();
      if (this.failure) throw this.failure;
      this.flush();
      await this.writing;
      if (this.failure) throw this.failure;
      this.closed = true;
      await this.handle.close();
      await fs.promises.rename(this.partial, this.zipPath);
      this.archive.path = this.zipPath;
      return { sizeBytes: this.total };
    } catch (err) {
      await this.abort();
      throw err;
    }
  }

  /** Drop the partial file (after a failed or aborted export). Safe to call more than once. */
  async abort(): Promise<void> {
    await this.writing.catch(() => undefined);
    if (!this.closed) {
      this.closed = true;
      await this.handle.close().catch(() => undefined);
    }
    await fs.promises.rm(this.partial, { force: true });
  }
}
