import path from 'node:path';
import type { Readable } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { BundleError } from './errors.js';
import type { ExtractedFile, ExtractSink } from './extract-sink.js';
import { MAX_INFLATE_RATIO } from './extract-tar.js';
import { InflatePool } from './inflate-pool.js';

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
/** Large entries streamed by this thread at the same time. */
const CONCURRENCY = 8;
/** Entries up to this size go to the extraction threads, which inflate each into one buffer. */
const THREAD_ENTRY_MAX = 16 * 1024 * 1024;
/** Below this size an entry's ratio is not judged: a small file of zeros is not a bomb. */
const RATIO_MIN_SIZE = 1024 * 1024;

/**
 * Stream every entry of a zip into the sink. yauzl reads the central directory, rejects absolute
 * names, `..` and backslashes itself (strictFileNames) and, with validateEntrySizes, fails an
 * entry whose inflated size differs from its header; the sink counts the real bytes on top, so a
 * header that lies about sizes cannot get past the cap. Unix file types other than regular files
 * and directories (symlinks above all) are refused: modes are never honoured.
 *
 * The first failure, or the sink's signal (the load's deadline or stop), aborts the sink and the
 * extraction threads, so nothing waits on an entry nobody will finish.
 */
export async function extractZip(file: string, sink: ExtractSink, reuse?: ReuseFiles): Promise<void> {
  const zip = await openZip(file, sink.archive);
  // Most entries (a docs site: pages, assets) are inflated, hashed and written by worker threads;
  // this thread reads the central directory, checks and claims names, and streams the rare
  // large entry itself. The threads start with the first entry that needs them: a publish that
  // changed one page links nearly every file from the version before.
  let threads: InflatePool | undefined;
  const pool = () => (threads ??= new InflatePool(file, sink.archive, (f) => sink.record(f.name, { size: f.size, sha256: f.sha256 })));
  // Several entries in flight: each one waits on reads, inflate and writes; overlapping them
  // is what makes a 10,000-file bundle extract in seconds rather than tens of seconds.
  const inFlight = new Set<Promise<void>>();
  let failure: unknown;
  const onAbort = () => {
    failure ??= sink.signal.reason;
    threads?.abort(sink.signal.reason as BundleError);
  };
  sink.signal.addEventListener('abort', onAbort, { once: true });
  const track = (p: Promise<void>) => {
    const tracked = p.catch((err: unknown) => {
      failure ??= err;
      sink.abort(err);
    });
    inFlight.add(tracked);
    void tracked.finally(() => inFlight.delete(tracked));
  };
  try {
    if (zip.entryCount > sink.limits.maxEntries) {
      throw new BundleError(`${sink.archive}: ${zip.entryCount} entries, more than ${sink.limits.maxEntries} (staticExport.maxEntries)`);
    }
    for (;;) {
      if (failure) throw failure;
      const entry = await nextEntry(zip, sink.archive);
      if (!entry) break;
      const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
      // made-by host 3 = Unix: only then does the high half of the attributes carry a mode.
      const unix = entry.versionMadeBy >> 8 === 3;
      if (unix && type === S_IFLNK) throw new BundleError(`${sink.archive}: entry "${entry.fileName}" is a symbolic link; links are not allowed in a bundle`);
      if (unix && type !== 0 && type !== S_IFREG && type !== S_IFDIR) {
        throw new BundleError(`${sink.archive}: entry "${entry.fileName}" is not a regular file or directory (mode ${type.toString(8)})`);
      }
      if (entry.isEncrypted()) throw new BundleError(`${sink.archive}: entry "${entry.fileName}" is encrypted`);
      if (entry.fileName.endsWith('/')) {
        sink.directory(entry.fileName);
        continue;
      }
      // Cheap early refusal when the header already admits a bomb; the real count is in the sink.
      if (entry.uncompressedSize > sink.limits.maxUncompressedBytes) {
        throw new BundleError(`${sink.archive}: entry "${entry.fileName}" declares ${entry.uncompressedSize} bytes, more than ${sink.limits.maxUncompressedBytes} (staticExport.maxUncompressedBytes)`);
      }
      if (entry.uncompressedSize > RATIO_MIN_SIZE && entry.uncompressedSize > MAX_INFLATE_RATIO * entry.compressedSize) {
        throw new BundleError(
          `${sink.archive}: entry "${entry.fileName}" inflates ${Math.round(entry.uncompressedSize / Math.max(1, entry.compressedSize))} times its compressed size, more than ${MAX_INFLATE_RATIO} (a decompression bomb); refused`,
          { code: 'INFLATE_RATIO' },
        );
      }
      // Names are checked (and claimed) before anything is read.
      const claim = sink.claim(entry.fileName);
      const same = reuse?.identical(claim);
      if (same && same.size === entry.uncompressedSize && reuse!.link(claim, path.join(sink.root, claim))) {
        sink.reserve(claim, same.size);
        sink.record(claim, same);
        continue;
      }
      const method = entry.compressionMethod;
      if ((method === 0 || method === 8) && entry.uncompressedSize <= THREAD_ENTRY_MAX) {
        sink.reserve(claim, entry.uncompressedSize);
        await pool().add({ name: claim, target: path.join(sink.root, claim), offset: entry.relativeOffsetOfLocalHeader, compressedSize: entry.compressedSize, size: entry.uncompressedSize, method });
        continue;
      }
      track(openEntry(zip, entry, sink.archive).then((stream) => sink.write(claim, stream)));
      while (inFlight.size >= CONCURRENCY) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    if (failure) throw failure;
    await threads?.finish();
  } catch (err) {
    sink.abort(err);
    throw err;
  } finally {
    sink.signal.removeEventListener('abort', onAbort);
    await Promise.all(inFlight);
    // Threads stopped before the caller removes the directory they write into.
    await threads?.close();
    zip.close();
  }
}

/**
 * Files of an extracted, verified version that the new bundle's manifest lists with the same
 * size and sha256 (load-bundle.ts, `reuseFrom`): linked into the new version instead of inflated.
 */
export interface ReuseFiles {
  /** The file as the manifest of the new bundle and the version before both list it, or undefined. */
  identical(name: string): ExtractedFile | undefined;
  /** Link the earlier version's file at `target`; false when it cannot (then the entry is inflated). */
  link(name: string, target: string): boolean;
}

/** One entry's bytes, read before the extraction (the manifest, to know which files are unchanged); undefined if absent or larger than `maxBytes`. */
export async function readZipEntry(file: string, name: string, maxBytes: number): Promise<Buffer | undefined> {
  const zip = await openZip(file, path.basename(file));
  try {
    for (;;) {
      const entry = await nextEntry(zip, file);
      if (!entry) return undefined;
      if (entry.fileName !== name) continue;
      if (entry.uncompressedSize > maxBytes) return undefined;
      const stream = await openEntry(zip, entry, file);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > maxBytes) return undefined;
        chunks.push(chunk);
      }
      return Buffer.concat(chunks);
    }
  } finally {
    zip.close();
  }
}

function openZip(file: string, archive: string): Promise<ZipFile> {
  const options = { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: true, decodeStrings: true };
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, zip?: ZipFile) => {
      if (err || !zip) reject(new BundleError(`${archive}: not a readable zip archive: ${err?.message ?? 'unknown error'}`, { cause: err }));
      else resolve(zip);
    };
    yauzl.open(file, options, done);
  });
}

/** The next entry, or undefined at the end; yauzl's name checks surface here as errors. */
function nextEntry(zip: ZipFile, archive: string): Promise<Entry | undefined> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (e: Entry) => {
      cleanup();
      resolve(e);
    };
    const onEnd = () => {
      cleanup();
      resolve(undefined);
    };
    const onError = (err: Error) => {
      cleanup();
      reject(new BundleError(`${archive}: ${err.message}`, { cause: err }));
    };
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

function openEntry(zip: ZipFile, entry: Entry, archive: string): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream) reject(new BundleError(`${archive}: entry "${entry.fileName}" cannot be read: ${err?.message ?? 'unknown error'}`, { cause: err }));
      else resolve(stream);
    });
  });
}
