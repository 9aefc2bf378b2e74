import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isPageFile, isSnippetPath } from './slugs.js';

/** Sources that are inputs of the build, never files a browser should fetch. */
const NOT_AN_ASSET = /\.(?:jsx|tsx|ts|mts|cts)$/;
const ROOT_BUILD_FILES = new Set(['docs.json', 'mint.json', 'package.json', 'package-lock.json', 'pnpm-lock.yaml', 'yarn.lock']);

export function isAssetFile(file: string): boolean {
  if (isPageFile(file) || ROOT_BUILD_FILES.has(file) || NOT_AN_ASSET.test(file)) return false;
  if (isSnippetPath(file) && /\.(?:mdx?|js)$/.test(file)) return false;
  return true;
}

/** `images/logo.png` + hash → `_assets/images/logo.3f2a9c1b.png` (a dotless name gets the hash appended). */
export function hashedBundlePath(file: string, hash8: string): string {
  const dir = path.posix.dirname(file);
  const ext = path.posix.extname(file);
  const base = path.posix.basename(file, ext);
  const name = base === '' ? `${ext}.${hash8}` : `${base}.${hash8}${ext}`;
  return dir === '.' ? `_assets/${name}` : `_assets/${dir}/${name}`;
}

/** sha256 and size of a file, read in 1 MB pieces so a large video is never held whole. */
function digestFile(abs: string): { size: number; sha256: string } {
  const hash = createHash('sha256');
  const fd = fs.openSync(abs, 'r');
  const buf = Buffer.allocUnsafe(1024 * 1024);
  let size = 0;
  try {
    for (let n = fs.readSync(fd, buf, 0, buf.length, null); n > 0; n = fs.readSync(fd, buf, 0, buf.length, null)) {
      hash.update(buf.subarray(0, n));
      size += n;
    }
  } finally {
    fs.closeSync(fd);
  }
  return { size, sha256: hash.digest('hex') };
}

/**
 * Every non-page file gets a content-hashed name under `_assets/`, so the site can serve it with
 * long immutable caching and a new version never collides with an old one in a browser cache.
 * The full digest is kept for the manifest: the write stage then never reads an asset, and the
 * pack stage reads each one once, as it goes into the zip.
 */
export function planAssets(
  repoRoot: string,
  files: readonly string[],
): { assets: Record<string, string>; digests: Record<string, { size: number; sha256: string }> } {
  const assets: Record<string, string> = {};
  const digests: Record<string, { size: number; sha256: string }> = {};
  for (const file of files) {
    if (!isAssetFile(file)) continue;
    const digest = digestFile(path.join(repoRoot, file));
    assets[file] = hashedBundlePath(file, digest.sha256.slice(0, 8));
    digests[file] = digest;
  }
  return { assets, digests };
}
