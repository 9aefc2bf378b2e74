import fs from 'node:fs';
import path from 'node:path';
import type { SiteFiles } from './site-files.js';

/** Write the in-memory site under `outDir` (created if needed; existing files are overwritten). */
export async function writeSiteToDir(site: SiteFiles, outDir: string): Promise<void> {
  const root = path.resolve(outDir);
  const dirs = new Set<string>();
  for (const p of site.sortedPaths()) dirs.add(path.dirname(path.join(root, p)));
  for (const d of [...dirs].sort()) fs.mkdirSync(d, { recursive: true });
  const queue = site.sortedPaths();
  // A few writes in flight: enough to keep the disk busy without thousands of open handles.
  const worker = async (): Promise<void> => {
    for (let p = queue.pop(); p !== undefined; p = queue.pop()) {
      await fs.promises.writeFile(path.join(root, p), site.bytes(p));
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}
