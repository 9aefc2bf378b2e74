import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { tryRemoveTree } from '../fs-tree.js';
import type { Logger } from '../logger.js';
import { redactUrl } from '../logger.js';
import { BundleError } from './errors.js';
import { ExtractSink, type ExtractedFile, type ExtractLimits } from './extract-sink.js';
import { extractTar } from './extract-tar.js';
import { extractZip, readZipEntry, type ReuseFiles } from './extract-zip.js';
import { downloadWithRetry, type FetchOptions } from './fetch.js';
import { checkFilesAgainstManifest, checkPinnedVersion, MANIFEST_FILE, parseManifest, readManifest, type LoadedManifest } from './manifest.js';
import { scanDirectory } from './scan-dir.js';
import { sitesRoot, tempPath, versionDirName } from './sites-dir.js';
import { resolveSource, sniffArchive } from './source.js';
import { versionNameProblem } from './version-name.js';
import { takeSpareTree } from './spare-tree.js';

/** After a deadline or stop, how long the extractor gets to let go of its files before the temp dir goes. */
const STOP_GRACE_MS = 2000;

export interface LoadBundleOptions {
  stateDir: string;
  bundleUrl: string;
  /** staticExport.version: the pin. */
  version?: string | undefined;
  limits: ExtractLimits;
  fetch: Omit<FetchOptions, 'signal' | 'onRetry'>;
  signal?: AbortSignal | undefined;
  /**
   * staticExport.verifyTimeoutMs: extraction and verification of one bundle (after its download)
   * end within this time, or the load fails with VERIFY_TIMEOUT. A watchdog: no archive should
   * ever get near it, but no archive can hold the loader for longer either.
   */
  verifyTimeoutMs: number;
  log: Logger;
  cwd?: string;
  /**
   * An extracted, verified version of the same site (the one a publish replaces): files the new
   * manifest lists with the same path, size and sha256 as its manifest are hard-linked from it
   * instead of inflated and hashed again. The new version is still complete on its own, and the
   * manifest check is the same; only the work for unchanged files is skipped.
   */
  reuseFrom?: string;
  /** Start the extraction in the slot's spare directory tree when there is one (spare-tree.ts). */
  spareTree?: boolean;
}

/** A verified site on disk, ready to be made active. */
export interface LoadedSite {
  version: string;
  dir: string;
  projectId: string | null;
  mounted: boolean;
  /** bundleUrl with any signature redacted. */
  source: string;
  /** The pinned version was already extracted: nothing was fetched. */
  fromCache: boolean;
  pageCount: number | null;
}

/**
 * Turn staticExport.bundleUrl into a verified site directory. Nothing here changes what is being
 * served: the caller activates the result. Any failure leaves no partial directory behind.
 */
export async function loadBundle(opts: LoadBundleOptions): Promise<LoadedSite> {
  const source = resolveSource(opts.bundleUrl, opts.cwd);
  const shown = redactUrl(opts.bundleUrl);
  if (opts.version !== undefined) checkVersionName(opts.version, 'staticExport.version');
  if (source.kind === 'directory') return withDeadline(source.dir, opts, (signal) => mountDirectory(source.dir, opts, signal));

  const cached = pinnedCache(opts.stateDir, opts.version);
  if (cached) return { ...cached, source: shown };

  let archive: string;
  let download: string | undefined;
  if (source.kind === 'http') {
    download = tempPath(opts.stateDir, 'download');
    const started = Date.now();
    const { bytes, attempts } = await downloadWithRetry(source.url, download, {
      ...opts.fetch,
      signal: opts.signal,
      onRetry: ({ attempt, delayMs, error }) => opts.log.warn({ source: shown, attempt, delayMs, err: error.message }, 'bundle download failed; retrying'),
      onRedirect: ({ from, to, status }) => opts.log.info({ from: redactUrl(from), to: redactUrl(to), status }, 'bundle download redirected'),
    });
    opts.log.info({ source: shown, bytes, attempts, ms: Date.now() - started }, 'bundle downloaded');
    archive = download;
  } else {
    archive = source.file;
  }
  const label = path.basename(source.kind === 'http' ? new URL(source.url).pathname : source.file) || 'bundle';
  try {
    return { ...(await withDeadline(label, opts, (signal) => extractVerified(archive, label, opts, signal))), source: shown };
  } finally {
    if (download) fs.rmSync(download, { force: true });
  }
}

function checkVersionName(version: string, where: string): void {
  const problem = versionNameProblem(version);
  if (problem) throw new BundleError(`${where}: version ${problem}; give the bundle another version`, { code: 'RESERVED_VERSION' });
}

/**
 * Run `work` with a signal that fires at staticExport.verifyTimeoutMs or when the load is stopped.
 * The extractors honour the signal and clean up; should one not (a stall nobody foresaw), the
 * load still fails STOP_GRACE_MS later, and what it left in sites/ goes at the next start.
 */
async function withDeadline<T>(label: string, opts: LoadBundleOptions, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ms = opts.verifyTimeoutMs;
  const controller = new AbortController();
  const timer = setTimeout(
    () =>
      controller.abort(
        new BundleError(`${label}: extraction and verification did not finish within ${ms} ms (staticExport.verifyTimeoutMs); refused`, { code: 'VERIFY_TIMEOUT' }),
      ),
    ms,
  );
  const onStop = () => controller.abort(new BundleError(`${label}: load cancelled`, { code: 'LOAD_CANCELLED' }));
  if (opts.signal?.aborted) onStop();
  opts.signal?.addEventListener('abort', onStop, { once: true });
  const { signal } = controller;
  try {
    const running = work(signal);
    return await new Promise<T>((resolve, reject) => {
      running.then(resolve, reject);
      const onDeadline = () => {
        const fail = () => reject(signal.reason as Error);
        const grace = setTimeout(fail, STOP_GRACE_MS);
        void running.catch(() => undefined).finally(() => {
          clearTimeout(grace);
          fail();
        });
      };
      if (signal.aborted) onDeadline();
      else signal.addEventListener('abort', onDeadline, { once: true });
    });
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onStop);
  }
}

/** The pinned version, if a previous run extracted it: served without fetching (expired links). */
function pinnedCache(stateDir: string, pin: string | undefined): Omit<LoadedSite, 'source'> | undefined {
  if (!pin) return undefined;
  const dir = path.join(sitesRoot(stateDir), versionDirName(pin));
  if (!fs.existsSync(dir)) return undefined;
  const manifestFile = path.join(dir, MANIFEST_FILE);
  if (fs.existsSync(manifestFile)) {
    const m = readManifest(manifestFile, dir);
    if (m.version !== pin) return undefined;
    return { version: pin, dir, projectId: m.projectId, mounted: false, fromCache: true, pageCount: m.pageCount };
  }
  return { version: pin, dir, projectId: null, mounted: false, fromCache: true, pageCount: null };
}

async function extractVerified(archive: string, label: string, opts: LoadBundleOptions, signal: AbortSignal): Promise<Omit<LoadedSite, 'source'>> {
  const kind = sniffArchive(archive);
  const spare = opts.spareTree && kind === 'zip' ? takeSpareTree(opts.stateDir) : undefined;
  const work = spare ?? tempPath(opts.stateDir, 'extract');
  if (!spare) fs.mkdirSync(work, { mode: 0o755 });
  try {
    const sink = new ExtractSink(work, label, opts.limits, signal);
    const reuse = kind === 'zip' && opts.reuseFrom ? await unchangedFiles(archive, label, opts.reuseFrom) : undefined;
    // Settles only once no entry is being written any more, on success and failure alike.
    await (kind === 'zip' ? extractZip(archive, sink, reuse) : extractTar(archive, sink));
    signal.throwIfAborted();
    if (sink.files.size === 0) throw new BundleError(`${label}: the archive contains no files`);

    let version: string;
    let projectId: string | null = null;
    let pageCount: number | null = null;
    if (sink.files.has(MANIFEST_FILE)) {
      const manifest = readManifest(path.join(work, MANIFEST_FILE), label);
      checkFilesAgainstManifest(manifest, sink.files, label);
      checkPinnedVersion(manifest.version, opts.version, label);
      checkVersionName(manifest.version, `${label}: manifest.json`);
      version = manifest.version;
      projectId = manifest.projectId;
      pageCount = manifest.pageCount;
    } else if (kind === 'tar') {
      // The hosted platform's tarballs carry no manifest: structure checks only, then the pin (or
      // the archive's own hash) names the version.
      version = opts.version ?? `tar-${(await sha256File(archive)).slice(0, 16)}`;
    } else {
      throw new BundleError(`${label}: manifest.json is missing (a zip bundle must carry one)`);
    }
    signal.throwIfAborted();
    const dir = path.join(sitesRoot(opts.stateDir), versionDirName(version));
    placeVersion(work, dir, opts.log);
    return { version, dir, projectId, mounted: false, fromCache: false, pageCount };
  } finally {
    removeLeftover(work, opts.log);
  }
}

/** Largest manifest read ahead of the extraction (a 25,000-page site's is about 8 MB). */
const MAX_MANIFEST_AHEAD = 64 * 1024 * 1024;

/**
 * The files the bundle's manifest lists exactly as the earlier version's does, linked from it.
 * Anything unreadable (no manifest on either side, one that does not parse) means no reuse: the
 * bundle is then extracted in full and checked as any other.
 */
async function unchangedFiles(archive: string, label: string, earlier: string): Promise<ReuseFiles | undefined> {
  let before: LoadedManifest;
  let after: LoadedManifest;
  try {
    before = readManifest(path.join(earlier, MANIFEST_FILE), label);
    const bytes = await readZipEntry(archive, MANIFEST_FILE, MAX_MANIFEST_AHEAD);
    if (!bytes) return undefined;
    after = parseManifest(bytes.toString('utf8'), label);
  } catch {
    return undefined;
  }
  const known = new Map(before.files.map((f) => [f.path, f]));
  const same = new Map<string, ExtractedFile>();
  for (const f of after.files) {
    const b = known.get(f.path);
    if (b && b.size === f.size && b.sha256 === f.sha256) same.set(f.path, { size: f.size, sha256: f.sha256 });
  }
  return {
    identical: (name) => same.get(name),
    link: (name, target) => {
      const from = path.join(earlier, name);
      try {
        // The earlier file must still be what its manifest said in size (nothing truncated it).
        const st = fs.lstatSync(from);
        if (!st.isFile() || st.size !== same.get(name)?.size) return false;
        fs.linkSync(from, target);
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** Best effort: a temp dir that cannot be removed now is removed at the next start (removeStaleTemps). */
function removeLeftover(dir: string, log: Logger): void {
  const failure = tryRemoveTree(dir);
  if (failure) log.warn({ dir, err: failure.message }, 'cannot remove a temp directory in sites/; removed at the next start');
}

/**
 * Rename the verified temp dir to its version name. The same version extracted before with the
 * same manifest is reused as is; different content under the same label replaces it.
 */
function placeVersion(work: string, dir: string, log: Logger): void {
  if (fs.existsSync(dir)) {
    const same = sameFile(path.join(work, MANIFEST_FILE), path.join(dir, MANIFEST_FILE));
    if (same) return;
    const old = `${path.dirname(dir)}/.old-${crypto.randomBytes(6).toString('hex')}`;
    fs.renameSync(dir, old);
    fs.renameSync(work, dir);
    removeLeftover(old, log);
    return;
  }
  fs.renameSync(work, dir);
}

function sameFile(a: string, b: string): boolean {
  try {
    return fs.readFileSync(a).equals(fs.readFileSync(b));
  } catch {
    return false;
  }
}

async function mountDirectory(dir: string, opts: LoadBundleOptions, signal: AbortSignal): Promise<LoadedSite> {
  const manifestFile = path.join(dir, MANIFEST_FILE);
  const hasManifest = fs.existsSync(manifestFile);
  const files = await scanDirectory(dir, opts.limits, hasManifest, signal);
  if (files.size === 0) throw new BundleError(`${dir}: the directory is empty`);
  let version = opts.version ?? 'mounted';
  let projectId: string | null = null;
  let pageCount: number | null = null;
  if (hasManifest) {
    const manifest = readManifest(manifestFile, dir);
    checkFilesAgainstManifest(manifest, files, dir);
    checkPinnedVersion(manifest.version, opts.version, dir);
    checkVersionName(manifest.version, `${dir}: manifest.json`);
    version = manifest.version;
    projectId = manifest.projectId;
    pageCount = manifest.pageCount;
  }
  return { version, dir, projectId, mounted: true, source: dir, fromCache: false, pageCount };
}

async function sha256File(file: string): Promise<string> {
  const h = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) h.update(chunk as Buffer);
  return h.digest('hex');
}
