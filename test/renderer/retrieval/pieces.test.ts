/**
 * Files written in pieces (llms-full.txt, the section index): the spool's file is the whole file,
 * or one raw-deflate stream of it for a zip, and its size, CRC-32 and sha256 are the whole file's.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { SpooledFile } from '../../../renderer/write/spool.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pieces-test-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const enc = new TextEncoder();
const pieces = ['# Title\n\nSome text about the appliance. '.repeat(200), 'Ünïcödé — “quotes” and 漢字 '.repeat(50), '', 'x'.repeat(70_000), 'tail\n'].map((t) => enc.encode(t));
const whole = Buffer.concat(pieces);

describe('a spooled file', () => {
  it('deflated: one raw-deflate stream of the whole, with the whole file’s size, CRC-32 and sha256', async () => {
    const spool = new SpooledFile(path.join(dir, 'a.txt'), 1);
    for (const p of pieces) spool.append(p);
    const done = await spool.finish();
    expect(done).toMatchObject({ deflated: true, size: whole.length, crc32: zlib.crc32(whole) >>> 0, sha256: createHash('sha256').update(whole).digest('hex') });
    expect(zlib.inflateRawSync(fs.readFileSync(done.source)).equals(whole)).toBe(true);
  });

  it('keeps its own copy of each piece: the batch buffer it came from may be reused at once', async () => {
    const spool = new SpooledFile(path.join(dir, 'reuse.txt'), undefined);
    const buffer = enc.encode('first piece;');
    spool.append(buffer);
    buffer.fill(0x21);
    spool.append(enc.encode('second piece'));
    const done = await spool.finish();
    expect(fs.readFileSync(done.source, 'utf8')).toBe('first piece;second piece');
  });

  it('raw (an export to a directory): the file itself; nothing may be added once finished', async () => {
    const spool = new SpooledFile(path.join(dir, 'b.txt'), undefined);
    for (const p of pieces) spool.append(p);
    const done = await spool.finish();
    expect(done.deflated).toBe(false);
    expect(fs.readFileSync(done.source).equals(whole)).toBe(true);
    expect(() => spool.append(enc.encode('late'))).toThrow(/finished/);
  });

  it('empty: a valid empty file', async () => {
    const done = await new SpooledFile(path.join(dir, 'c.txt'), 1).finish();
    expect(done.size).toBe(0);
    expect(zlib.inflateRawSync(fs.readFileSync(done.source)).length).toBe(0);
  });

  it('fails with the disk’s own error when its file cannot be written', async () => {
    const spool = new SpooledFile(path.join(dir, 'no-such-dir', 'd.txt'), 1);
    spool.append(enc.encode('something'));
    await expect(spool.finish()).rejects.toThrow(/ENOENT/);
  });
});
