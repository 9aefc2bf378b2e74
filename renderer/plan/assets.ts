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

export function hash8(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 8);
}

/**
 * Every non-page file gets a content-hashed name under `_assets/`, so the site can serve it with
 * long immutable caching and a new version never collides with an old one in a browser cache.
 */
export function planAssets(repoRoot: string, files: readonly string[]): Record<string, string> {
  const assets: Record<string, string> = {};
  for (const file of files) {
    if (!isAssetFile(file)) continue;
    assets[file] = hashedBundlePath(file, hash8(fs.readFileSync(path.join(repoRoot, file))));
  }
  return assets;
}
