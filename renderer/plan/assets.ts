import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { BuildWarning } from '../types.js';
import { openRepoFile, readRepoFile, readRepoText } from '../repo-files.js';
import { externalScriptWarning } from './custom-scripts.js';
import { localiseStylesheet } from './custom-styles.js';
import { isAgentInstructionFile, isPageFile, isSnippetPath } from './slugs.js';

/** Sources that are inputs of the build, never files a browser should fetch. */
const NOT_AN_ASSET = /\.(?:jsx|tsx|ts|mts|cts)$/;
const ROOT_BUILD_FILES = new Set(['docs.json', 'mint.json', 'package.json', 'package-lock.json', 'pnpm-lock.yaml', 'yarn.lock']);

export function isAssetFile(file: string): boolean {
  if (isPageFile(file) || isAgentInstructionFile(file) || ROOT_BUILD_FILES.has(file) || NOT_AN_ASSET.test(file)) return false;
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
function digestFile(repoRoot: string, file: string): { size: number; sha256: string } {
  const hash = createHash('sha256');
  const { fd } = openRepoFile(repoRoot, file);
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

export interface PlannedAssets {
  /** Repository path → bundle path (`_assets/…`, content-hashed). */
  assets: Record<string, string>;
  /** Size and sha256 of each asset as it goes into the bundle. */
  digests: Record<string, { size: number; sha256: string }>;
  /** Custom stylesheets whose URLs were rewritten (custom-styles.ts): their bundle bytes. */
  rewritten: Record<string, Uint8Array>;
  warnings: BuildWarning[];
}

/**
 * Every non-page file gets a content-hashed name under `_assets/`, so the site can serve it with
 * long immutable caching and a new version never collides with an old one in a browser cache.
 * The full digest is kept for the manifest: the write stage then never reads an asset, and the
 * pack stage reads each one once, as it goes into the zip. Custom stylesheets come last: the URLs
 * inside them are rewritten to the other assets' hashed names, and their own names hash the result.
 */
export function planAssets(repoRoot: string, files: readonly string[], custom: { css: readonly string[]; js: readonly string[] }): PlannedAssets {
  const assets: Record<string, string> = {};
  const digests: Record<string, { size: number; sha256: string }> = {};
  const rewritten: Record<string, Uint8Array> = {};
  const warnings: BuildWarning[] = [];
  const stylesheets = new Set(custom.css);
  for (const file of files) {
    if (!isAssetFile(file) || stylesheets.has(file)) continue;
    const digest = digestFile(repoRoot, file);
    assets[file] = hashedBundlePath(file, digest.sha256.slice(0, 8));
    digests[file] = digest;
  }
  const assetUrl = (repoPath: string): string | undefined => (assets[repoPath] === undefined ? undefined : `/${assets[repoPath]}`);
  for (const file of custom.css) {
    const source = readRepoFile(repoRoot, file);
    const styled = localiseStylesheet(file, source.toString('utf8'), { assetUrl, stylesheets });
    warnings.push(...styled.warnings);
    const bytes = styled.changed ? new Uint8Array(Buffer.from(styled.css, 'utf8')) : new Uint8Array(source);
    if (styled.changed) rewritten[file] = bytes;
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    assets[file] = hashedBundlePath(file, sha256.slice(0, 8));
    digests[file] = { size: bytes.length, sha256 };
  }
  for (const file of custom.js) {
    const warning = externalScriptWarning(file, readRepoText(repoRoot, file));
    if (warning) warnings.push(warning);
  }
  return { assets, digests, rewritten, warnings };
}
