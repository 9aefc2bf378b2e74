import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { cacheControlFor } from './cache-policy.js';
import { contentType, isCompressible } from './mime.js';
import { parseSiteAccess, privateCacheControl, type SiteAccess } from './access-gate.js';
import { MarkedVariants } from './marked-variants.js';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Files up to this size are kept in memory (and their compressed forms beside them). */
const MAX_CACHED_FILE = 4 * 1024 * 1024;
/** Compressing smaller bodies costs more than it saves. */
const MIN_COMPRESS = 1024;
/** A mounted directory may change under us: its entries are re-checked after this long. */
const MOUNTED_RECHECK_MS = 1000;
const MAX_NEGATIVE = 10_000;
/** Errors that only say "no such file here": remembered as a miss like ENOENT. */
const DEFINITE_MISS = new Set(['ENOENT', 'ENOTDIR', 'ENAMETOOLONG', 'ELOOP']);

/** A filesystem error met while looking up a reader's path (answered 404, reported here). */
export type FsErrorReporter = (err: NodeJS.ErrnoException, rel: string) => void;

export interface SiteFile {
  rel: string;
  abs: string;
  size: number;
  mtimeMs: number;
  etag: string;
  lastModified: string;
  type: string;
  cacheControl: string;
  compressible: boolean;
  /** The bytes, when small enough to keep in memory. */
  body?: Buffer;
  br?: Promise<Buffer>;
  gzip?: Promise<Buffer>;
  /** The compressed bodies once computed: what the cache-hit path serves synchronously. */
  brBody?: Buffer;
  gzipBody?: Buffer;
  checkedAt: number;
  /** A marked file as one reader view sees it (marked-variants.ts): its memory is counted there. */
  variant?: true;
}

/**
 * One active site directory and what has been learnt about its files. Swapping sites replaces
 * the whole object, so a request that started on the old site finishes on the old site's files
 * and cache. Strong ETags come from the manifest's sha256 when there is one.
 */
export class ServedSite {
  private readonly files = new Map<string, SiteFile>();
  /** Paths known not to be files, with when that was checked. */
  private readonly missing = new Map<string, number>();
  private cachedBytes = 0;
  private readonly hashes = new Map<string, string>();
  /** The root with every link resolved: a served file's real path must be under it. */
  private realRoot: string | undefined;
  /**
   * The manifest's `redirects` (pattern rules, app/site/pattern-redirects.ts), kept from the one
   * parse of the manifest this site gets: a reader's request never parses it again.
   */
  readonly manifestRedirects: unknown;
  /**
   * The manifest's `access` (issue 40): present only for a bundle rendered with reader access,
   * and then every answer of this site is enforced from it (app/site/access-gate.ts).
   */
  readonly access: SiteAccess | undefined;
  /** Per-view variants of the marked files (only for a site with `access`). */
  readonly variants: MarkedVariants | undefined;

  constructor(
    readonly root: string,
    readonly version: string,
    readonly mounted: boolean,
    /** The project the site was exported for (its manifest), when known: beacons count for it. */
    readonly projectId: string | null,
    private readonly memoryBudget = 256 * 1024 * 1024,
    private readonly onFsError: FsErrorReporter = () => {},
    /** When this version became the served one (its active record's time, kept across restarts); null when unknown. */
    readonly activatedAt: string | null = null,
    /** The access to enforce when the bundle carries none (a project given `auth` since its last publish). */
    fallbackAccess?: SiteAccess,
  ) {
    let redirects: unknown;
    let access: unknown;
    try {
      const m = JSON.parse(fs.readFileSync(path.join(root, 'manifest.json'), 'utf8')) as { files?: { path: string; sha256: string }[]; redirects?: unknown; access?: unknown };
      for (const f of m.files ?? []) this.hashes.set(f.path, f.sha256);
      redirects = m.redirects;
      access = m.access;
    } catch {
      // no manifest (tarball or mounted directory): weak ETags from size and mtime
    }
    this.manifestRedirects = redirects;
    this.access = parseSiteAccess(access) ?? fallbackAccess;
    this.variants = this.access ? new MarkedVariants() : undefined;
  }

  /** The file for a normalised relative path, or undefined (missing, a directory, a link). */
  lookup(rel: string): SiteFile | undefined {
    const hit = this.files.get(rel);
    if (hit && !this.mounted) return hit;
    const now = Date.now();
    if (hit && now - hit.checkedAt < MOUNTED_RECHECK_MS) return hit;
    if (!hit) {
      const missingSince = this.missing.get(rel);
      if (missingSince !== undefined && (!this.mounted || now - missingSince < MOUNTED_RECHECK_MS)) return undefined;
    }
    const abs = path.join(this.root, rel);
    const st = this.statServable(abs, rel);
    if (st === 'error') return undefined;
    if (!st) {
      if (hit) this.forget(hit);
      if (this.missing.size >= MAX_NEGATIVE) this.missing.clear();
      this.missing.set(rel, now);
      return undefined;
    }
    this.missing.delete(rel);
    if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) {
      hit.checkedAt = now;
      return hit;
    }
    if (hit) this.forget(hit);
    const sha = this.mounted ? undefined : this.hashes.get(rel);
    const type = contentType(rel);
    const file: SiteFile = {
      rel,
      abs,
      size: st.size,
      mtimeMs: st.mtimeMs,
      etag: sha ? `"${sha.slice(0, 32)}"` : `W/"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`,
      lastModified: st.mtime.toUTCString(),
      type,
      cacheControl: this.access ? privateCacheControl(cacheControlFor(rel)) : cacheControlFor(rel),
      compressible: isCompressible(type) && st.size >= MIN_COMPRESS,
      checkedAt: now,
    };
    if (st.size <= MAX_CACHED_FILE && this.cachedBytes + st.size <= this.memoryBudget) {
      try {
        file.body = fs.readFileSync(abs);
        this.cachedBytes += file.body.length;
      } catch {
        return undefined;
      }
    }
    this.files.set(rel, file);
    return file;
  }

  /**
   * The file's stats if it is a regular file whose real path is inside the root; undefined for a
   * miss (remembered); 'error' for a fault not known to be permanent (reported, not remembered).
   * A reader's path reaches the filesystem here, so every error ends here: `index.html/` is
   * ENOTDIR, a 300-character segment ENAMETOOLONG, a link loop ELOOP (docs/site-layout.md).
   */
  private statServable(abs: string, rel: string): fs.Stats | undefined | 'error' {
    try {
      // lstat: a link that appeared in a mounted directory after its scan is never followed...
      // throwIfNoEntry: a miss is the common case for extensionless URLs; no exception for it.
      const st = fs.lstatSync(abs, { throwIfNoEntry: false });
      if (!st || !st.isFile()) return undefined;
      // ...and neither is a link to a directory added above it (lstat checks the last
      // component only): the whole path, resolved, must still be the file under the root.
      this.realRoot ??= fs.realpathSync(this.root);
      if (fs.realpathSync(abs) !== path.join(this.realRoot, rel)) return undefined;
      return st;
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      if (typeof e.code === 'string' && DEFINITE_MISS.has(e.code)) {
        if (e.code !== 'ENOENT') this.onFsError(e, rel);
        return undefined;
      }
      this.onFsError(e, rel);
      return 'error';
    }
  }

  /** The compressed form of a cached file, computed once off the main thread and kept. */
  compressed(file: SiteFile, encoding: 'br' | 'gzip'): Promise<Buffer> | undefined {
    if (!file.body || !file.compressible) return undefined;
    const body = file.body;
    // The byte cap covers compressed variants too: past it they are compressed while streaming.
    if (!file.variant && !(encoding === 'br' ? file.br : file.gzip) && this.cachedBytes + body.length > this.memoryBudget) return undefined;
    if (encoding === 'br') {
      file.br ??= this.account(brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }), file.variant).then((b) => (file.brBody = b));
      return file.br;
    }
    file.gzip ??= this.account(gzip(body, { level: 6 }), file.variant).then((b) => (file.gzipBody = b));
    return file.gzip;
  }

  private account(p: Promise<Buffer>, variant = false): Promise<Buffer> {
    return p.then((b) => {
      if (variant) return b;
      this.cachedBytes += b.length;
      return b;
    });
  }

  private forget(file: SiteFile): void {
    this.files.delete(file.rel);
    if (file.body) this.cachedBytes -= file.body.length;
  }
}
