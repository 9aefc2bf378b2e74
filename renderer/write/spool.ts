import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import zlib from 'node:zlib';

const WRITE_BYTES = 256 * 1024;

export interface SpooledResult {
  /** The file on disk: a raw-deflate stream when `deflated`, the file's bytes otherwise. */
  source: string;
  deflated: boolean;
  /** Size, sha256 and CRC-32 of the file's (uncompressed) bytes. */
  size: number;
  sha256: string;
  crc32: number;
}

/**
 * A bundle file written in pieces as the export goes (llms-full.txt, the section index): each piece
 * is hashed and handed on at once, so the export holds none of it in memory. For a zip the pieces
 * go through one raw-deflate stream (zlib on libuv's threads, beside the render workers) into the
 * file, which is then the zip entry's finished data: packing only copies it. One stream, not a
 * deflate per piece: the bytes do not depend on how the pages were batched, and no per-call setup
 * is paid for every page.
 */
export class SpooledFile {
  private readonly hash: Hash = createHash('sha256');
  private readonly out: fs.WriteStream;
  private readonly deflater: zlib.DeflateRaw | undefined;
  private readonly closed: Promise<void>;
  private size = 0;
  private crc = 0;
  /** Pieces not yet handed on: gathered into writes of about WRITE_BYTES (one zlib job each). */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private done = false;
  private failure: Error | undefined;

  constructor(
    private readonly file: string,
    private readonly level: number | undefined,
  ) {
    this.out = fs.createWriteStream(file);
    this.deflater = level === undefined ? undefined : zlib.createDeflateRaw({ level });
    this.deflater?.pipe(this.out);
    const fail = (err: Error): void => {
      this.failure ??= err;
    };
    this.deflater?.on('error', fail);
    this.closed = new Promise((resolve) => {
      this.out.on('close', resolve);
      this.out.on('error', (err) => {
        fail(err);
        resolve();
      });
    });
  }

  append(raw: Uint8Array): void {
    if (this.done) throw new Error(`${this.file} is finished`);
    if (this.failure) throw this.failure;
    if (raw.length === 0) return;
    this.hash.update(raw);
    this.crc = zlib.crc32(raw, this.crc);
    this.size += raw.length;
    // Copied: the piece is a view of a batch buffer that is released once consumed.
    this.pending.push(Buffer.from(raw));
    this.pendingBytes += raw.length;
    if (this.pendingBytes >= WRITE_BYTES) this.flush();
  }

  private flush(): void {
    if (this.pendingBytes === 0) return;
    (this.deflater ?? this.out).write(Buffer.concat(this.pending, this.pendingBytes));
    this.pending = [];
    this.pendingBytes = 0;
  }

  async finish(): Promise<SpooledResult> {
    if (!this.done) {
      this.done = true;
      this.flush();
      (this.deflater ?? this.out).end();
    }
    await this.closed;
    if (this.failure) throw this.failure;
    return { source: this.file, deflated: this.level !== undefined, size: this.size, sha256: this.hash.digest('hex'), crc32: this.crc >>> 0 };
  }

  /** Stop without finishing (a failed export); the file goes with its directory. */
  abort(): void {
    if (this.done) return;
    this.done = true;
    this.deflater?.destroy();
    this.out.destroy();
  }
}
