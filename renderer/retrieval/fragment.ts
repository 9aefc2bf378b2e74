import zlib from 'node:zlib';

/**
 * Raw-deflate pieces that can be joined: each piece is compressed on its own and ends with a sync
 * flush (a byte-aligned, non-final block), so pieces deflated by different render workers,
 * written one after another and closed with `FINAL_BLOCK`, form one valid deflate stream (the way
 * pigz compresses in parallel). No piece refers back into another, since each starts a fresh
 * stream.
 */
export function deflatePiece(bytes: Uint8Array, level: number): Uint8Array {
  const out = zlib.deflateRawSync(bytes, { level, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

/** An empty final block with fixed Huffman codes: ends a stream of joined pieces. */
export const FINAL_BLOCK = Uint8Array.of(0x03, 0x00);
