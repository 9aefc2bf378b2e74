/**
 * Files written in pieces (llms-full.txt, the section index): pieces deflated apart by different
 * workers join into one deflate stream, and the spool's size, CRC-32 and sha256 are those of the
 * whole file.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { deflatePiece, FINAL_BLOCK } from '../../../renderer/retrieval/fragment.js';
import { SpooledFile } from '../../../renderer/write/spool.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pieces-test-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const enc = new TextEncoder();
// Repetitive across pieces (so a shared window would matter), with multi-byte characters.
const pieces = ['# Title\n\nSome text about the appliance. '.repeat(200), 'Ünïcödé — “quotes” and 漢字 '.repeat(50), '', 'x'.repeat(70_000), 'tail\n'].map((t) => enc.encode(t));
const whole = Buffer.concat(pieces);

describe('pieces deflated apart', () => {
  it('join into one raw-deflate stream that inflates to the concatenation', () => {
    for (const level of [1, 4, 9]) {
      const joined = Buffer.concat([...pieces.map((p) => deflatePiece(p, level)), FINAL_BLOCK]);
      expect(zlib.inflateRawSync(joined).equals(whole)).toBe(true);
    }
  });

  it('a deflated spool holds the whole stream with the whole file’s size, CRC-32 and sha256', () => {
    const spool = new SpooledFile(path.join(dir, 'a.txt'), 1);
    // Some pieces come deflated by a worker, some raw (the header the main thread writes).
    pieces.forEach((p, i) => spool.append(p, i % 2 === 0 ? deflatePiece(p, 1) : undefined));
    const done = spool.finish();
    expect(done).toMatchObject({ deflated: true, size: whole.length, crc32: zlib.crc32(whole) >>> 0, sha256: createHash('sha256').update(whole).digest('hex') });
    expect(zlib.inflateRawSync(fs.readFileSync(done.source)).equals(whole)).toBe(true);
  });

  it('a raw spool (an export to a directory) is the file itself', () => {
    const spool = new SpooledFile(path.join(dir, 'b.txt'), undefined);
    for (const p of pieces) spool.append(p);
    const done = spool.finish();
    expect(done.deflated).toBe(false);
    expect(fs.readFileSync(done.source).equals(whole)).toBe(true);
    expect(() => spool.append(enc.encode('late'))).toThrow(/finished/);
  });

  it('an empty spool is a valid empty file', () => {
    const done = new SpooledFile(path.join(dir, 'c.txt'), 1).finish();
    expect(done.size).toBe(0);
    expect(zlib.inflateRawSync(fs.readFileSync(done.source)).length).toBe(0);
  });
});
