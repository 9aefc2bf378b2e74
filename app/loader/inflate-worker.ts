/**
 * Worker thread of the zip extraction (inflate-pool.ts): for each entry of a batch, read its
 * compressed bytes from the archive, inflate them synchronously into a buffer no larger than the
 * size the central directory declares, hash and write the file with exclusive create. Node
 * built-ins only, so the thread starts in milliseconds. Failures are reported per batch with the
 * entry's name; the main thread turns them into a BundleError naming the archive.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import zlib from 'node:zlib';
import type { InflateBatch, InflateReply } from './inflate-types.js';

const LOCAL_HEADER = 0x04034b50;
const { archive } = workerData as { archive: string };
const fd = fs.openSync(archive, 'r');
const header = Buffer.alloc(30);

class EntryError extends Error {}

function extract(e: InflateBatch['entries'][number]): { size: number; sha256: string } {
  if (fs.readSync(fd, header, 0, 30, e.offset) !== 30 || header.readUInt32LE(0) !== LOCAL_HEADER) throw new EntryError('its local header is missing or damaged');
  const start = e.offset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  const compressed = Buffer.allocUnsafe(e.compressedSize);
  if (fs.readSync(fd, compressed, 0, e.compressedSize, start) !== e.compressedSize) throw new EntryError('the archive ends inside it (truncated)');
  let data: Buffer;
  if (e.method === 0) {
    data = compressed;
  } else {
    try {
      // One byte more than declared is enough to know the header lies: the cap on real bytes
      // (the sum of declared sizes, checked by the main thread) can never be passed.
      data = zlib.inflateRawSync(compressed, { maxOutputLength: Math.max(1, e.size + 1) });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) throw new EntryError(`inflates to more than the ${e.size} bytes its header declares (the content exceeds what the header says)`);
      throw new EntryError(`cannot be inflated: ${(err as Error).message}`);
    }
  }
  if (data.length !== e.size) throw new EntryError(`is ${data.length} bytes, its header declares ${e.size}`);
  const sha256 = crypto.createHash('sha256').update(data).digest('hex');
  fs.writeFileSync(e.target, data, { flag: 'wx', mode: 0o644 });
  return { size: data.length, sha256 };
}

parentPort!.on('message', (batch: InflateBatch) => {
  const files: InflateReply['files'] = [];
  for (const e of batch.entries) {
    try {
      files.push({ name: e.name, ...extract(e) });
    } catch (err) {
      const reply: InflateReply = { id: batch.id, files, error: { name: e.name, message: err instanceof EntryError ? err.message : `could not be extracted: ${(err as Error).message}` } };
      parentPort!.postMessage(reply);
      return;
    }
  }
  parentPort!.postMessage({ id: batch.id, files } satisfies InflateReply);
});
