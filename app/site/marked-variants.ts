/**
 * Marked files (issue 40): a text file of an access site whose fragments depend on the reader
 * (the sidebar of an HTML page, llms.txt, sitemap.xml) is served as filterMarked makes it for the
 * reader's view. Each (file, view) variant is a SiteFile of its own: its own bytes, strong ETag
 * from those bytes, and compressed forms computed once, so the site handler serves it like any
 * file. Variants are kept in a bounded LRU per served site.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { filterMarked } from '../../renderer/access/filter.js';
import type { ReaderView } from '../../renderer/access/contract.js';
import { viewKey } from './access-gate.js';
import { isCompressible } from './mime.js';
import type { SiteFile } from './served-site.js';

const MAX_VARIANTS = 2000;
/** Bytes of variant bodies kept; a body's compressed forms are smaller, counted as twice more. */
const MAX_VARIANT_BYTES = 32 * 1024 * 1024;
const MIN_COMPRESS = 1024;

interface Entry {
  source: SiteFile;
  file: SiteFile;
  cost: number;
}

export class MarkedVariants {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly maxEntries = MAX_VARIANTS,
    private readonly maxBytes = MAX_VARIANT_BYTES,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The file as `view` may see it. */
  async variant(source: SiteFile, view: ReaderView): Promise<SiteFile> {
    const key = `${source.rel}\u0000${viewKey(view)}`;
    const hit = this.entries.get(key);
    if (hit && hit.source === source) {
      // Most recently used goes last.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.file;
    }
    if (hit) this.drop(key, hit);
    const text = (source.body ?? (await fs.promises.readFile(source.abs))).toString('utf8');
    const body = Buffer.from(filterMarked(text, view));
    const file: SiteFile = {
      rel: source.rel,
      abs: source.abs,
      size: body.length,
      // Not a modification time: a reader who signs in must never get a 304 for the signed-out variant.
      mtimeMs: Number.NaN,
      etag: `"${crypto.createHash('sha256').update(body).digest('hex').slice(0, 32)}"`,
      lastModified: source.lastModified,
      type: source.type,
      cacheControl: source.cacheControl,
      compressible: isCompressible(source.type) && body.length >= MIN_COMPRESS,
      body,
      variant: true,
      checkedAt: source.checkedAt,
    };
    const cost = body.length * 3;
    if (cost <= this.maxBytes) {
      while (this.entries.size >= this.maxEntries || this.bytes + cost > this.maxBytes) {
        const oldest = this.entries.entries().next();
        if (oldest.done) break;
        this.drop(oldest.value[0], oldest.value[1]);
      }
      this.entries.set(key, { source, file, cost });
      this.bytes += cost;
    }
    return file;
  }

  private drop(key: string, e: Entry): void {
    this.entries.delete(key);
    this.bytes -= e.cost;
  }
}
