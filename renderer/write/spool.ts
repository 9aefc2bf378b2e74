import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { deflatePiece, FINAL_BLOCK } from '../retrieval/fragment.js';

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
 * is appended to a file on disk at once, hashed on the way, so the export holds none of it in
 * memory. For a zip, the pieces arrive deflated from the render workers (renderer/retrieval/
 * fragment.ts) and the spool is the entry's finished deflate stream: packing only copies it.
 */
export class SpooledFile {
  private readonly fd: number;
  private readonly hash: Hash = createHash('sha256');
  private size = 0;
  private crc = 0;
  private done = false;

  constructor(
    private readonly file: string,
    private readonly level: number | undefined,
  ) {
    this.fd = fs.openSync(file, 'w');
  }

  /** Append raw bytes; `deflated` is the same piece already deflated (when spooling deflated). */
  append(raw: Uint8Array, deflated?: Uint8Array): void {
    if (this.done) throw new Error(`${this.file} is finished`);
    if (raw.length === 0) return;
    this.hash.update(raw);
    this.crc = zlib.crc32(raw, this.crc);
    this.size += raw.length;
    this.write(this.level === undefined ? raw : (deflated ?? deflatePiece(raw, this.level)));
  }

  finish(): SpooledResult {
    if (!this.done) {
      if (this.level !== undefined) this.write(FINAL_BLOCK);
      fs.closeSync(this.fd);
      this.done = true;
    }
    return { source: this.file, deflated: this.level !== undefined, size: this.size, sha256: this.hash.digest('hex'), crc32: this.crc >>> 0 };
  }

  /** Close without finishing (a failed export); the file goes with its directory. */
  abort(): void {
    if (this.done) return;
    this.done = true;
    fs.closeSync(this.fd);
  }

  private write(bytes: Uint8Array): void {
    let at = 0;
    while (at < bytes.length) at += fs.writeSync(this.fd, bytes, at, bytes.length - at);
  }
}
