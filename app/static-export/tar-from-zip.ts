import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { Header, Pax } from 'tar';
import yauzl, { type Entry, type ZipFile } from 'yauzl';

const BLOCK = 512;

/**
 * Write the gzip-compressed tar twin of an export's zip (issue 17): the same files, in the same
 * order, with the same bytes, `manifest.json` included, so `curl "$bundleUrl" | tar xz` gives
 * what unzipping gives. Streamed entry by entry (no file is held whole in memory); long or
 * non-ASCII names get a PAX header as node-tar writes them. Entries are plain files, mode 0644,
 * owner 0:0, dated `mtime` (the job's creation), so two runs give the same bytes. The zip is the
 * appliance's own, but a directory entry is still only implied by the paths under it.
 * Answers the size of the written file.
 */
export async function tarGzFromZip(zipPath: string, outPath: string, opts: { mtime: Date; signal?: AbortSignal }): Promise<number> {
  const zip = await openZip(zipPath);
  try {
    await pipeline(Readable.from(tarBlocks(zip, opts.mtime)), zlib.createGzip({ level: 6 }), fs.createWriteStream(outPath), ...(opts.signal ? [{ signal: opts.signal }] : []));
  } finally {
    zip.close();
  }
  return fs.statSync(outPath).size;
}

async function* tarBlocks(zip: ZipFile, mtime: Date): AsyncGenerator<Buffer> {
  for (;;) {
    const entry = await nextEntry(zip);
    if (!entry) break;
    if (entry.fileName.endsWith('/')) continue;
    const data = { path: entry.fileName, mode: 0o644, uid: 0, gid: 0, uname: '', gname: '', size: entry.uncompressedSize, mtime, type: 'File' as const };
    const header = new Header(data);
    if (header.encode()) yield new Pax(data).encode();
    yield header.block!;
    let written = 0;
    for await (const chunk of await openEntry(zip, entry)) {
      written += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
    if (written !== entry.uncompressedSize) throw new Error(`${entry.fileName}: ${written} bytes read from the zip, ${entry.uncompressedSize} declared`);
    const pad = (BLOCK - (written % BLOCK)) % BLOCK;
    if (pad) yield Buffer.alloc(pad);
  }
  // The end of the archive: two empty blocks.
  yield Buffer.alloc(2 * BLOCK);
}

function openZip(file: string): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: true }, (err, zip) => (err ? reject(err) : resolve(zip))),
  );
}

function nextEntry(zip: ZipFile): Promise<Entry | undefined> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (e: Entry) => (cleanup(), resolve(e));
    const onEnd = () => (cleanup(), resolve(undefined));
    const onError = (err: Error) => (cleanup(), reject(err));
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

function openEntry(zip: ZipFile, entry: Entry): Promise<Readable> {
  return new Promise((resolve, reject) => zip.openReadStream(entry, (err, stream) => (err ? reject(err) : resolve(stream))));
}
