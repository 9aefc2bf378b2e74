import fs from 'node:fs';
import zlib from 'node:zlib';
import { Zip, type ZipInputFile } from 'fflate';
import type { Predeflated, SiteFiles } from '../write/site-files.js';

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
  if (key) {
    if (deflateCache.size >= CACHE_MAX_ENTRIES) deflateCache.delete(deflateCache.keys().next().value as string);
    deflateCache.set(key, made);
  }
  return { ...made, compression: 8 };
}

export interface PackOptions {
  createdAt: Date;
  /** zlib level for files not deflated by the workers. */
  level?: number;
  signal?: AbortSignal;
}

/**
 * Pack the site into one zip at `zipPath`, entries in path order with a fixed timestamp so the
 * same site gives the same bytes. Pages arrive deflated by the render workers and are only framed
 * here; the rest is deflated with zlib (native, several times faster than a JS deflate) unless
 * it is an already-compressed format. Output goes to the file in 4 MB writes: the zip is never
 * held whole in memory beside the site.
 */
export async function packZip(site: SiteFiles, zipPath: string, options: PackOptions): Promise<{ sizeBytes: number }> {
  const mtime = dosTime(options.createdAt);
  const level = options.level ?? 6;
  // Written beside the target and renamed at the end: a reader never sees half a zip, and a
  // failed or aborted pack leaves nothing behind.
  const partial = `${zipPath}.partial-${process.pid}-${Date.now()}`;
  const handle = await fs.promises.open(partial, 'w');
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let total = 0;
  let failure: Error | undefined;
  const zip = new Zip((err, chunk) => {
    if (err) failure = err;
    else {
      pending.push(chunk);
      pendingBytes += chunk.length;
    }
  });
  const flush = async (): Promise<void> => {
    if (pendingBytes === 0) return;
    const out = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    await handle.write(out, 0, out.length);
    total += out.length;
  };
  try {
    for (const path of site.sortedPaths()) {
      options.signal?.throwIfAborted();
      const entry = preparedEntry(site, path, level);
      addPrepared(zip, path, entry.data, { size: site.size(path), crc: entry.crc32, compression: entry.compression, mtime });
      if (failure) throw failure;
      if (pendingBytes >= FLUSH_BYTES) await flush();
    }
    zip.end();
    if (failure) throw failure;
    await flush();
    await handle.close();
    await fs.promises.rename(partial, zipPath);
  } catch (err) {
    await handle.close().catch(() => undefined);
    await fs.promises.rm(partial, { force: true });
    throw err;
  }
  return { sizeBytes: total };
}
