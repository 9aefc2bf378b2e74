import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { safeEntryName } from './entry-name.js';
import { BundleError } from './errors.js';

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

  constructor(
    readonly root: string,
    readonly archive: string,
    readonly limits: ExtractLimits,
  ) {}

  /** Count one entry of any kind against the entry cap. */
  countEntry(): void {
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
    this.countEntry();
    const name = safeEntryName(rawName, this.archive);
    if (!name) throw new BundleError(`${this.archive}: a file entry has an empty name`);
    if (this.files.has(name)) throw new BundleError(`${this.archive}: entry "${name}" appears twice`);
    const parent = path.posix.dirname(name);
    if (parent !== '.') this.mkdir(parent);
    const hash = crypto.createHash('sha256');
    let size = 0;
    const count = new Transform({
      transform: (chunk: Buffer, _enc, cb) => {
        size += chunk.length;
        this.bytes += chunk.length;
        if (this.bytes > this.limits.maxUncompressedBytes) {
          cb(new BundleError(`${this.archive}: uncompressed content exceeds ${this.limits.maxUncompressedBytes} bytes at entry "${name}" (staticExport.maxUncompressedBytes)`));
          return;
        }
        hash.update(chunk);
        cb(null, chunk);
      },
    });
    try {
      await pipeline(content, count, fs.createWriteStream(path.join(this.root, name), { flags: 'wx', mode: 0o644 }));
    } catch (err) {
      if (err instanceof BundleError) throw err;
      throw new BundleError(`${this.archive}: entry "${name}" could not be extracted: ${(err as Error).message}`, { cause: err });
    }
    this.files.set(name, { size, sha256: hash.digest('hex') });
  }

  private mkdir(name: string): void {
    if (this.dirs.has(name)) return;
    if (this.files.has(name)) throw new BundleError(`${this.archive}: "${name}" is both a file and a directory`);
    const parent = path.posix.dirname(name);
    if (parent !== '.') this.mkdir(parent);
    try {
      fs.mkdirSync(path.join(this.root, name), { mode: 0o755 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !fs.lstatSync(path.join(this.root, name)).isDirectory()) {
        throw new BundleError(`${this.archive}: cannot create directory "${name}": ${(err as Error).message}`);
      }
    }
    this.dirs.add(name);
  }
}
