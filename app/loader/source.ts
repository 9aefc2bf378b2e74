import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BundleError } from './errors.js';

/** Where a bundleUrl points: a URL to download, an archive on disk, or a directory to mount. */
export type BundleSource = { kind: 'http'; url: string } | { kind: 'archive'; file: string } | { kind: 'directory'; dir: string };

const schemeOf = (bundleUrl: string) => /^([a-z][a-z0-9+.-]*):\/\//i.exec(bundleUrl)?.[1]?.toLowerCase();

/**
 * Why `bundleUrl` can never be loaded, whatever is on the network or disk (checked when the
 * config is loaded, so such a value stops start-up instead of being retried for ever), or
 * undefined. Messages never repeat the URL: it may carry a signature.
 */
export function bundleUrlProblem(bundleUrl: string): string | undefined {
  const scheme = schemeOf(bundleUrl);
  if (scheme === undefined) return undefined;
  if (scheme === 'http' || scheme === 'https') {
    if (!URL.canParse(bundleUrl) || new URL(bundleUrl).hostname === '') return `is not a valid ${scheme}:// URL`;
    return undefined;
  }
  if (scheme === 'file') {
    try {
      fileURLToPath(bundleUrl);
      return undefined;
    } catch (err) {
      return `is not a usable file:// URL: ${(err as Error).message}`;
    }
  }
  return `has the unsupported scheme "${scheme}://" (use https://, http://, file:// or a path)`;
}

/**
 * `https://…`/`http://…` → download; `file://…` or a plain path → an archive, or a directory
 * mounted in place. Relative paths resolve against `cwd`. Other schemes are refused by name.
 */
export function resolveSource(bundleUrl: string, cwd: string = process.cwd()): BundleSource {
  const problem = bundleUrlProblem(bundleUrl);
  if (problem) throw new BundleError(`staticExport.bundleUrl ${problem}`, { code: 'UNSUPPORTED_SCHEME' });
  const scheme = schemeOf(bundleUrl);
  if (scheme === 'http' || scheme === 'https') return { kind: 'http', url: bundleUrl };
  const file = scheme === 'file' ? fileURLToPath(bundleUrl) : path.resolve(cwd, bundleUrl);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (err) {
    throw new BundleError(`staticExport.bundleUrl: ${file} cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (stat.isDirectory()) return { kind: 'directory', dir: fs.realpathSync(file) };
  if (stat.isFile()) return { kind: 'archive', file };
  throw new BundleError(`staticExport.bundleUrl: ${file} is neither a file nor a directory`);
}

/** What an archive is, by its first bytes (never by its name: links carry no extension). */
export function sniffArchive(file: string): 'zip' | 'tar' {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(262);
    const n = fs.readSync(fd, head, 0, head.length, 0);
    if (n >= 4 && head.readUInt32LE(0) === 0x04034b50) return 'zip';
    if (n >= 4 && head.readUInt32LE(0) === 0x06054b50) return 'zip'; // empty zip: rejected later
    if (n >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'tar';
    if (n >= 262 && head.subarray(257, 262).toString('latin1') === 'ustar') return 'tar';
    throw new BundleError(`${path.basename(file)}: neither a zip nor a (gzipped) tar archive`);
  } finally {
    fs.closeSync(fd);
  }
}
