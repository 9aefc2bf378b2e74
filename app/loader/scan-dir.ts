import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { safeEntryName } from './entry-name.js';
import { BundleError } from './errors.js';
import type { ExtractedFile, ExtractLimits } from './extract-sink.js';

/**
 * Walk a mounted site directory with the archive rules: no symlinks or special files (the server
 * must never be led outside the root), the same name, depth and length limits as archive entries
 * (safeEntryName), entry and byte caps, and each file's size and sha256 so a manifest, when
 * present, can be checked the same way as an archive's. The walk keeps its own list of
 * directories to visit: a tree thousands of levels deep costs no stack.
 */
export async function scanDirectory(root: string, limits: ExtractLimits, hash: boolean, signal?: AbortSignal): Promise<Map<string, ExtractedFile>> {
  const files = new Map<string, ExtractedFile>();
  let entries = 0;
  let bytes = 0;
  const dirs: string[] = [''];
  while (dirs.length > 0) {
    const rel = dirs.pop()!;
    for (const d of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      signal?.throwIfAborted();
      const name = safeEntryName(rel ? `${rel}/${d.name}` : d.name, root);
      entries += 1;
      if (entries > limits.maxEntries) throw new BundleError(`${root}: more than ${limits.maxEntries} entries (staticExport.maxEntries)`);
      if (d.isSymbolicLink()) throw new BundleError(`${root}: "${name}" is a symbolic link; a mounted site may not contain links`);
      if (d.isDirectory()) {
        dirs.push(name);
        continue;
      }
      if (!d.isFile()) throw new BundleError(`${root}: "${name}" is not a regular file or directory`);
      const full = path.join(root, name);
      const size = fs.statSync(full).size;
      bytes += size;
      if (bytes > limits.maxUncompressedBytes) throw new BundleError(`${root}: content exceeds ${limits.maxUncompressedBytes} bytes (staticExport.maxUncompressedBytes)`);
      let sha256 = '';
      if (hash) {
        const h = crypto.createHash('sha256');
        for await (const chunk of fs.createReadStream(full)) h.update(chunk as Buffer);
        sha256 = h.digest('hex');
      }
      files.set(name, { size, sha256 });
    }
  }
  return files;
}
