import fs from 'node:fs';
import path from 'node:path';
import { removeTree } from '../fs-tree.js';

/**
 * Where exports live: `<stateDir>/exports/<jobId>/bundle.zip`. The zip is written under a
 * temporary name and renamed into place, so `bundle.zip` exists only once it is complete.
 */
export function exportFiles(stateDir: string) {
  const root = path.join(path.resolve(stateDir), 'exports');
  return {
    root,
    dir: (jobId: string) => path.join(root, jobId),
    bundle: (jobId: string) => path.join(root, jobId, 'bundle.zip'),
    partial: (jobId: string) => path.join(root, jobId, 'bundle.zip.partial'),
    /** Remove a job's folder; returns the bytes freed. */
    remove(jobId: string): number {
      const dir = path.join(root, jobId);
      let bytes = 0;
      try {
        for (const f of fs.readdirSync(dir)) bytes += fs.statSync(path.join(dir, f)).size;
      } catch {
        return 0;
      }
      removeTree(dir);
      return bytes;
    },
  };
}

export type ExportFiles = ReturnType<typeof exportFiles>;
