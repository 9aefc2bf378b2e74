import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ExtractSink } from '../../app/loader/extract-sink.js';
import { extractZip } from '../../app/loader/extract-zip.js';
import { rawZip, type RawZipEntry } from './helpers/raw-zip.js';
import { tempDir } from './helpers/servers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/** Extract `entries` as a zip into a fresh directory with the sink the loader uses. */
async function extract(entries: RawZipEntry[], maxUncompressedBytes = 64 * 1024 * 1024) {
  const dir = tempDir('threaded-');
  dirs.push(dir);
  const zip = path.join(dir, 'bundle.zip');
  fs.writeFileSync(zip, rawZip(entries));
  const root = path.join(dir, 'out');
  fs.mkdirSync(root);
  const sink = new ExtractSink(root, 'bundle.zip', { maxEntries: 1000, maxUncompressedBytes });
  await extractZip(zip, sink);
  return { root, sink };
}

/**
 * Small entries are inflated, hashed and written by worker threads; large ones are streamed by the
 * main thread. Both must give the same files, sizes and hashes, and refuse the same lies.
 */
describe('zip extraction on worker threads', () => {
  it('writes stored, deflated, empty and large (streamed) entries byte for byte, with their sha256', async () => {
    const pages = Array.from({ length: 150 }, (_, i) => ({ name: `section-${i % 3}/page-${i}.html`, data: crypto.randomBytes(2000 + i).toString('hex'), deflate: i % 2 === 0 }));
    const large = crypto.randomBytes(17 * 1024 * 1024); // past the threads' 16 MB entry limit
    const entries: RawZipEntry[] = [...pages, { name: 'empty.txt', data: '', deflate: true }, { name: 'stored-empty.txt', data: '' }, { name: '_assets/video.bin', data: large, deflate: true }];
    const { root, sink } = await extract(entries);
    expect(sink.files.size).toBe(entries.length);
    for (const e of entries) {
      const want = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data ?? '');
      const got = fs.readFileSync(path.join(root, e.name));
      expect(got.equals(want)).toBe(true);
      expect(sink.files.get(e.name)).toEqual({ size: want.length, sha256: sha(want) });
    }
  });

  it('refuses an entry whose header declares more bytes than it holds', async () => {
    await expect(extract([{ name: 'a.html', data: 'short', deflate: true, claimedSize: 500 }])).rejects.toThrow(/bundle\.zip: entry "a\.html" is 5 bytes, its header declares 500/);
    await expect(extract([{ name: 'b.html', data: 'short', claimedSize: 3 }])).rejects.toThrow(/bundle\.zip: (compressed\/uncompressed size mismatch|entry "b\.html")/);
  });

  it('refuses damaged deflate data, naming the entry', async () => {
    const zip = rawZip([{ name: 'ok.html', data: 'fine'.repeat(100), deflate: true }, { name: 'bad.html', data: 'x'.repeat(4000), deflate: true }]);
    // Overwrite the start of bad.html's deflate stream (after its local header and name) with an invalid block type.
    const at = zip.indexOf(Buffer.from('bad.html')) + 'bad.html'.length;
    zip[at] = 0xff;
    zip[at + 1] = 0xff;
    const dir = tempDir('threaded-');
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, 'bundle.zip'), zip);
    fs.mkdirSync(path.join(dir, 'out'));
    const sink = new ExtractSink(path.join(dir, 'out'), 'bundle.zip', { maxEntries: 10, maxUncompressedBytes: 1024 * 1024 });
    await expect(extractZip(path.join(dir, 'bundle.zip'), sink)).rejects.toThrow(/entry "bad\.html" (cannot be inflated|inflates to more|is \d+ bytes)/);
  });

  it('counts declared sizes against the cap before any thread inflates them', async () => {
    const entries = Array.from({ length: 6 }, (_, i) => ({ name: `p${i}.html`, data: Buffer.alloc(300 * 1024), deflate: true }));
    await expect(extract(entries, 1024 * 1024)).rejects.toThrow(/uncompressed content exceeds 1048576 bytes at entry "p3\.html"/);
  });
});
