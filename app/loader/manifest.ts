import fs from 'node:fs';
import { z } from 'zod';
import { BundleError } from './errors.js';
import type { ExtractedFile } from './extract-sink.js';

export const MANIFEST_FILE = 'manifest.json';

/** The part of the renderer's BundleManifest (renderer/types.ts) the loader relies on. */
const manifestSchema = z.object({
  format: z.literal(1),
  jobId: z.string(),
  projectId: z.string(),
  domain: z.string(),
  version: z.string().min(1).max(128),
  createdAt: z.string(),
  pageCount: z.number().int().min(0),
  files: z.array(
    z.object({
      path: z.string().min(1),
      size: z.number().int().min(0),
      sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex characters'),
    }),
  ),
  warnings: z.array(z.unknown()).optional(),
});

export type LoadedManifest = z.output<typeof manifestSchema>;

/** Read and validate manifest.json; the error names the archive and the field. */
export function readManifest(file: string, archive: string): LoadedManifest {
  return parseManifest(fs.readFileSync(file, 'utf8'), archive);
}

export function parseManifest(text: string, archive: string): LoadedManifest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new BundleError(`${archive}: manifest.json is not valid JSON: ${(err as Error).message}`);
  }
  const result = manifestSchema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new BundleError(`${archive}: manifest.json is invalid: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return result.data;
}

/**
 * Every file the manifest lists must be there with its size and sha256, and nothing else may
 * be (a file the manifest does not vouch for is not served either). The first mismatch is named.
 */
export function checkFilesAgainstManifest(manifest: LoadedManifest, files: ReadonlyMap<string, ExtractedFile>, archive: string): void {
  const listed = new Set<string>();
  for (const f of manifest.files) {
    if (listed.has(f.path)) throw new BundleError(`${archive}: manifest.json lists "${f.path}" twice`);
    listed.add(f.path);
    const got = files.get(f.path);
    if (!got) throw new BundleError(`${archive}: "${f.path}" is listed in manifest.json but missing from the bundle`);
    if (got.size !== f.size) throw new BundleError(`${archive}: "${f.path}" is ${got.size} bytes, manifest.json says ${f.size}`);
    if (got.sha256 !== f.sha256) throw new BundleError(`${archive}: "${f.path}" sha256 ${got.sha256} does not match manifest.json (${f.sha256})`);
  }
  for (const name of files.keys()) {
    if (name !== MANIFEST_FILE && !listed.has(name)) throw new BundleError(`${archive}: "${name}" is in the bundle but not listed in manifest.json`);
  }
}

/** The pinned version, when set, must be the one the bundle declares. */
export function checkPinnedVersion(version: string, pinned: string | undefined, archive: string): void {
  if (pinned !== undefined && version !== pinned) {
    throw new BundleError(`${archive}: bundle version "${version}" does not match the pinned staticExport.version "${pinned}"`);
  }
}
