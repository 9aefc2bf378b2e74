import crypto from 'node:crypto';
import { setMaxListeners } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { safeEntryName } from './entry-name.js';
import { BundleError } from './errors.js';

/** Files up to this size are assembled in memory and written with one call. */
const IN_MEMORY = 1024 * 1024;

export interface ExtractLimits {
  maxEntries: number;
  /** Cap on the bytes actually written (counted while inflating, never taken from a header). */
  maxUncompressedBytes: number;
}

export interface ExtractedFile {
  size: number;
  sha256: string;
}

/**
 * Where both archive readers (zip, tar) write: checks each name, counts entries and real bytes
 * across the whole archive, writes with exclusive create (nothing pre-existing is ever followed
 * or overwritten) and records each file's size and sha256 for the manifest check.
 */
export class ExtractSink {
  readonly files = new Map<string, ExtractedFile>();
  private entries = 0;
  private bytes = 0;
  private readonly dirs = new Set<string>();
  private readonly claimed = new Set<string>();
  private readonly controller = new AbortController();

  /** `signal` (the load's deadline or stop) ends every write in progress with its reason. */
  constructor(
    readonly root: string,
    readonly archive: string,
    readonly limits: ExtractLimits,
    signal?: AbortSignal,
  ) {
    // Every file being read waits on this signal (nextOrAbort), and a tar's entries are read
    // concurrently: more than Node's default of 10 waiters is normal here, not a leak (each is
    // removed when its chunk comes), and the warning would tell an operator otherwise.
    setMaxListeners(0, this.controller.signal);
    if (signal?.aborted) this.abort(signal.reason);
    else signal?.addEventListener('abort', () => this.abort(signal.reason), { once: true });
  }

  /** Aborted once the archive has failed or the load was stopped; the reason is the error to report. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * Stop the extraction: writes waiting for data reject with `reason` at once. An archive reader
   * calls this on its first failure, so no writer is left waiting on a stream the failed reader
   * will never finish (node-tar leaves the current entry open when it aborts).
   */
  abort(reason: unknown): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }

  /** Count one entry of any kind against the entry cap. */
  countEntry(): void {
    this.signal.throwIfAborted();
    this.entries += 1;
    if (this.entries > this.limits.maxEntries) {
      throw new BundleError(`${this.archive}: more than ${this.limits.maxEntries} entries (staticExport.maxEntries)`);
    }
  }

  directory(rawName: string): void {
    this.countEntry();
    const name = safeEntryName(rawName, this.archive);
    if (name) this.mkdir(name);
  }

  /** Stream one regular file to disk; resolves once it is written, hashed and counted. */
  async file(rawName: string, content: Readable | AsyncIterable<Buffer>): Promise<void> {
    await this.write(this.claim(rawName), content);
  }

  /**
   * Check a file entry's name, count it and reserve it (duplicates fail here), creating its
   * parent directories. Separate from write() so entries can be read concurrently.
   */
  claim(rawName: string): string {
    this.countEntry();
    const name = safeEntryName(rawName, this.archive);
    if (!name) throw new BundleError(`${this.archive}: a file entry has an empty name`);
    if (this.files.has(name) || this.claimed.has(name)) throw new BundleError(`${this.archive}: entry "${name}" appears twice`);
    if (this.dirs.has(name)) throw new BundleError(`${this.archive}: "${name}" is both a file and a directory`);
    this.claimed.add(name);
    const parent = path.posix.dirname(name);
    if (parent !== '.') this.mkdir(parent);
    return name;
  }

  /**
   * Count an entry that an extraction thread inflates into a buffer of at most its declared size
   * (inflate-worker.ts): its declared size counts against the cap before anything is inflated,
   * so the real bytes, never more than the declared ones, cannot pass it either.
   */
  reserve(name: string, declaredSize: number): void {
    this.bytes += declaredSize;
    if (this.bytes > this.limits.maxUncompressedBytes) {
      throw new BundleError(`${this.archive}: uncompressed content exceeds ${this.limits.maxUncompressedBytes} bytes at entry "${name}" (staticExport.maxUncompressedBytes)`);
    }
  }

  /** A file written by an extraction thread, with its real size and sha256. */
  record(name: string, file: ExtractedFile): void {
    this.files.set(name, file);
  }

  async write(name: string, content: Readable | AsyncIterable<Buffer>): Promise<void> {
    const hash = crypto.createHash('sha256');
    const target = path.join(this.root, name);
    let size = 0;
    // Small files (nearly all of a docs site) are gathered in memory and written in one call: a
    // write stream per file costs more than the file. Past IN_MEMORY the rest goes to disk as
    // it arrives, so a header that lies about a small size cannot make this buffer grow.
    let pending: Buffer[] | undefined = [];
    let handle: fs.promises.FileHandle | undefined;
    const chunks = (content as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
    try {
      for (;;) {
        const step = await nextOrAbort(chunks, this.signal);
        if (step.done) break;
        const chunk = step.value;
        size += chunk.length;
        this.bytes += chunk.length;
        if (this.bytes > this.limits.maxUncompressedBytes) {
          throw new BundleError(`${this.archive}: uncompressed content exceeds ${this.limits.maxUncompressedBytes} bytes at entry "${name}" (staticExport.maxUncompressedBytes)`);
        }
        hash.update(chunk);
        if (pending) {
          pending.push(chunk);
          if (size <= IN_MEMORY) continue;
          handle = await fs.promises.open(target, 'wx', 0o644);
          await handle.writeFile(Buffer.concat(pending));
          pending = undefined;
        } else {
          await handle!.writeFile(chunk);
        }
      }
      // One synchronous call (open, write, close: tens of microseconds) costs a fifth of the
      // CPU of the thread-pool round trips of an async write, for a file that is already in memory.
      if (pending) fs.writeFileSync(target, pending.length === 1 ? pending[0]! : Buffer.concat(pending), { flag: 'wx', mode: 0o644 });
    } catch (err) {
      // Release the source stream (a Readable is destroyed, a tar entry paused) without waiting on it.
      void Promise.resolve(chunks.return?.()).catch(() => undefined);
      if (err instanceof BundleError) throw err;
      throw new BundleError(`${this.archive}: entry "${name}" could not be extracted: ${(err as Error).message}`, { cause: err });
    } finally {
      await handle?.close();
    }
    this.files.set(name, { size, sha256: hash.digest('hex') });
  }

  /** Create `name` and any missing parents, outermost first (a loop: depth never costs stack). */
  private mkdir(name: string): void {
    const missing: string[] = [];
    for (let d = name; d !== '.' && !this.dirs.has(d); d = path.posix.dirname(d)) missing.push(d);
    for (const d of missing.reverse()) {
      if (this.files.has(d) || this.claimed.has(d)) throw new BundleError(`${this.archive}: "${d}" is both a file and a directory`);
      try {
        fs.mkdirSync(path.join(this.root, d), { mode: 0o755 });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !fs.lstatSync(path.join(this.root, d)).isDirectory()) {
          throw new BundleError(`${this.archive}: cannot create directory "${d}": ${(err as Error).message}`);
        }
      }
      this.dirs.add(d);
    }
  }
}

/** The next chunk, or the abort reason as soon as `signal` fires, whichever comes first. */
function nextOrAbort(chunks: AsyncIterator<Buffer>, signal: AbortSignal): Promise<IteratorResult<Buffer>> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    chunks.next().then(
      (step) => {
        signal.removeEventListener('abort', onAbort);
        resolve(step);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err as Error);
      },
    );
  });
}
