/**
 * Static export of a bundle rendered with reader access (issue 40, docs/static-export.md,
 * "Projects with reader access"): a static web server cannot enforce access, so the export's
 * bundle holds only what a signed-out reader may see, and its `include: "all"` twin every file
 * with the markers stripped; neither carries `access`. Runs in the export thread, after the
 * renderer wrote the zip and before its tar.gz twin is made.
 */
import fs from 'node:fs';
import { unzipSync, zipSync, type Zippable } from 'fflate';
import { ANONYMOUS, EVERYTHING } from '../../renderer/access/contract.js';
import { accessOf, stripBundle } from '../../renderer/access/strip-bundle.js';
import type { ExportRequest } from './export-protocol.js';
import { tarGzFromZip } from './tar-from-zip.js';

export interface PackedBundle {
  tarGzBytes: number;
  /** The zip's size after the transform; undefined when the renderer's zip is kept as it is. */
  sizeBytes?: number;
  /** The bundle had `access`: the `include: "all"` files were written too. */
  withAccess: boolean;
}

function writeZip(out: string, files: ReadonlyMap<string, Uint8Array>, mtime: Date): void {
  const entries: Zippable = {};
  for (const [rel, bytes] of files) entries[rel] = [bytes, { level: 6, mtime }];
  fs.writeFileSync(out, zipSync(entries));
}

/** Makes the tar.gz of the export's zip; for a bundle with `access`, first the public and the all variants. */
export async function packBundle(request: Pick<ExportRequest, 'outZip' | 'outAllZip' | 'outAllTarGz' | 'createdAt'> & { outTarGz: string }, signal?: AbortSignal): Promise<PackedBundle> {
  const opts = { mtime: request.createdAt, ...(signal ? { signal } : {}) };
  const manifest = readManifest(request.outZip);
  if (!accessOf(manifest) || !request.outAllZip || !request.outAllTarGz) {
    return { tarGzBytes: await tarGzFromZip(request.outZip, request.outTarGz, opts), withAccess: false };
  }
  const files = new Map(Object.entries(unzipSync(fs.readFileSync(request.outZip))));
  writeZip(request.outAllZip, stripBundle(files, EVERYTHING).files, request.createdAt);
  await tarGzFromZip(request.outAllZip, request.outAllTarGz, opts);
  writeZip(request.outZip, stripBundle(files, ANONYMOUS).files, request.createdAt);
  const tarGzBytes = await tarGzFromZip(request.outZip, request.outTarGz, opts);
  return { tarGzBytes, sizeBytes: fs.statSync(request.outZip).size, withAccess: true };
}

/** The zip's manifest.json, read alone (the common case, no access, does not unpack the bundle). */
function readManifest(zipPath: string): unknown {
  const only = unzipSync(fs.readFileSync(zipPath), { filter: (f) => f.name === 'manifest.json' });
  const raw = only['manifest.json'];
  if (!raw) return undefined;
  try {
    return JSON.parse(Buffer.from(raw).toString('utf8'));
  } catch {
    return undefined;
  }
}
