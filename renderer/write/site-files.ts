import { createHash } from 'node:crypto';
import fs from 'node:fs';
import zlib from 'node:zlib';

/** A file's raw-deflate stream prepared in a render worker, with the CRC-32 of its raw bytes. */
export interface Predeflated {
  data: Uint8Array;
  crc32: number;
}

/** Where an archive's bytes are: the zip being written, renamed into place when it is finished. */
export interface ArchiveRef {
  path: string;
}

interface Entry {
  raw?: Uint8Array;
  deflated?: Predeflated;
  /** A file copied from disk as is (repository assets, pages already written out): read only when its bytes are needed. */
  source?: string;
  /** A page already framed into the zip: its raw-deflate stream lies at `offset` for `length` bytes. */
  zipped?: { archive: ArchiveRef; offset: number; length: number; crc32: number };
  /** A file spooled to disk as a finished raw-deflate stream (write/spool.ts). */
  spooled?: { source: string; crc32: number };
  size: number;
  sha256?: string;
}

function readRange(file: string, offset: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  const fd = fs.openSync(file, 'r');
  try {
    let done = 0;
    while (done < length) {
      const n = fs.readSync(fd, out, done, length - done, offset + done);
      if (n === 0) throw new Error(`${file} ended before the entry at ${offset} did`);
      done += n;
    }
  } finally {
    fs.closeSync(fd);
  }
  return out;
}

function assertBundlePath(path: string): void {
  if (path.startsWith('/') || path.includes('\\') || path.split('/').some((s) => s === '..' || s === '.' || s === '')) {
    throw new Error(`refusing a bundle path that is not relative and clean: ${path}`);
  }
}

/**
 * The in-memory site: bundle path → bytes. Pages rendered for a zip are kept only deflated (as
 * the workers produced them, about a fifth of the HTML's size) and inflated on demand when
 * someone reads them, so a 10,000-page export does not hold its HTML twice; repository assets
 * (images, videos, PDFs) stay on disk until the zip or the output directory takes them.
 */
export class SiteFiles {
  private readonly entries = new Map<string, Entry>();
  /** Every directory some entry lies in (`a`, `a/b` for `a/b/c.html`), for clashOf. */
  private readonly dirs = new Set<string>();

  add(path: string, bytes: Uint8Array, known?: { sha256?: string; deflated?: Predeflated }): void {
    this.put(path, { raw: bytes, size: bytes.length, ...(known?.sha256 ? { sha256: known.sha256 } : {}), ...(known?.deflated ? { deflated: known.deflated } : {}) });
  }

  /** A file known only by its deflated bytes (plus size and hash from the worker). */
  addDeflated(path: string, file: { size: number; sha256: string; deflated: Predeflated }): void {
    this.put(path, file);
  }

  /** A file whose bytes stay on disk until read (size and hash known already). */
  addFromDisk(path: string, file: { source: string; size: number; sha256: string }): void {
    this.put(path, file);
  }

  /** A file whose raw-deflate stream is on disk, spooled while the export ran (write/spool.ts). */
  addSpooled(path: string, file: { source: string; size: number; sha256: string; crc32: number }): void {
    this.put(path, { spooled: { source: file.source, crc32: file.crc32 }, size: file.size, sha256: file.sha256 });
  }

  /** Hold a file's bytes in memory from now on (its file on disk is about to go). */
  keepInMemory(path: string): void {
    const e = this.entry(path);
    const raw = this.bytes(path);
    delete e.source;
    delete e.spooled;
    delete e.zipped;
    e.raw = raw;
  }

  /**
   * Drop a file's bytes from memory once they are safely elsewhere (a page in the zip, or written
   * under outDir): the export then holds only each page's size and hash, whatever the site's size,
   * and the bytes are read back from there if anyone asks (`files`, the 404 copy, outDir).
   */
  release(path: string, where: { source: string } | { archive: ArchiveRef; offset: number; length: number; crc32: number }): void {
    const e = this.entry(path);
    if (e.sha256 === undefined) throw new Error(`cannot release ${path} before its hash is known`);
    delete e.raw;
    delete e.deflated;
    delete e.spooled;
    if ('source' in where) e.source = where.source;
    else e.zipped = where;
  }

  private put(path: string, entry: Entry): void {
    assertBundlePath(path);
    if (this.entries.has(path)) throw new Error(`two outputs want the same bundle path: ${path}`);
    const clash = this.clashOf(path);
    if (clash !== undefined) throw new Error(`two outputs a file system cannot hold together: ${clash} and ${path}`);
    this.entries.set(path, entry);
    for (let cut = path.lastIndexOf('/'); cut > 0; cut = path.lastIndexOf('/', cut - 1)) this.dirs.add(path.slice(0, cut));
  }

  /**
   * The entry that keeps `path` out of the bundle, if any: the same path, a file where `path`
   * needs a directory (`a.md` for `a.md/index.html`), or a directory where `path` would be a file.
   * A zip may hold both, but no file system can (`--out-dir` fails with EISDIR, `unzip` errors).
   */
  clashOf(path: string): string | undefined {
    if (this.entries.has(path)) return path;
    if (this.dirs.has(path)) return `${path}/`;
    for (let cut = path.lastIndexOf('/'); cut > 0; cut = path.lastIndexOf('/', cut - 1)) {
      const dir = path.slice(0, cut);
      if (this.entries.has(dir)) return dir;
    }
    return undefined;
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  get count(): number {
    return this.entries.size;
  }

  private entry(path: string): Entry {
    const e = this.entries.get(path);
    if (e === undefined) throw new Error(`no such bundle file: ${path}`);
    return e;
  }

  size(path: string): number {
    return this.entry(path).size;
  }

  bytes(path: string): Uint8Array {
    const e = this.entry(path);
    if (e.raw) return e.raw;
    if (e.zipped) return new Uint8Array(zlib.inflateRawSync(readRange(e.zipped.archive.path, e.zipped.offset, e.zipped.length)));
    if (e.spooled) return new Uint8Array(zlib.inflateRawSync(fs.readFileSync(e.spooled.source)));
    if (e.source !== undefined) {
      const bytes = new Uint8Array(fs.readFileSync(e.source));
      // The file changed between plan and pack: the manifest would lie, so refuse.
      if (bytes.length !== e.size) throw new Error(`${e.source} changed while the export ran`);
      return bytes;
    }
    return new Uint8Array(zlib.inflateRawSync((e.deflated as Predeflated).data));
  }

  deflated(path: string): Predeflated | undefined {
    const e = this.entry(path);
    if (e.zipped) return { data: readRange(e.zipped.archive.path, e.zipped.offset, e.zipped.length), crc32: e.zipped.crc32 };
    if (e.spooled) return { data: new Uint8Array(fs.readFileSync(e.spooled.source)), crc32: e.spooled.crc32 };
    return e.deflated;
  }

  sha256(path: string): string {
    const e = this.entry(path);
    e.sha256 ??= createHash('sha256').update(this.bytes(path)).digest('hex');
    return e.sha256;
  }

  /** Paths in a fixed order (code-unit order), the order of the manifest and of the zip entries. */
  sortedPaths(): string[] {
    return [...this.entries.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** A read-only Map view (path order); deflated-only files are inflated when read. */
  view(): ReadonlyMap<string, Uint8Array> {
    return new SiteFilesView(this, this.sortedPaths());
  }
}

class SiteFilesView implements ReadonlyMap<string, Uint8Array> {
  constructor(
    private readonly site: SiteFiles,
    private readonly paths: string[],
  ) {}
  get size(): number {
    return this.paths.length;
  }
  get(key: string): Uint8Array | undefined {
    return this.site.has(key) ? this.site.bytes(key) : undefined;
  }
  has(key: string): boolean {
    return this.site.has(key);
  }
  *keys(): MapIterator<string> {
    yield* this.paths;
  }
  *values(): MapIterator<Uint8Array> {
    for (const p of this.paths) yield this.site.bytes(p);
  }
  *entries(): MapIterator<[string, Uint8Array]> {
    for (const p of this.paths) yield [p, this.site.bytes(p)];
  }
  [Symbol.iterator](): MapIterator<[string, Uint8Array]> {
    return this.entries();
  }
  forEach(fn: (value: Uint8Array, key: string, map: ReadonlyMap<string, Uint8Array>) => void): void {
    for (const p of this.paths) fn(this.site.bytes(p), p, this);
  }
}
