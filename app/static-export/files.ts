import fs from 'node:fs';
import path from 'node:path';
import { removeTree } from '../fs-tree.js';

/** The formats of a bundle: a gzip-compressed tar (the default, as the hosted platform hands out) and a zip. */
export const BUNDLE_FORMATS = ['tar.gz', 'zip'] as const;
export type BundleFormat = (typeof BUNDLE_FORMATS)[number];
/** What a bundle of a project with reader access holds: the public files (default) or all of them. */
export const BUNDLE_INCLUDES = ['public', 'all'] as const;
export type BundleInclude = (typeof BUNDLE_INCLUDES)[number];

/**
 * Where exports live: `<stateDir>/exports/<jobId>/bundle.zip` and its twin `bundle.tar.gz`
 * (the default format, issue 17). Both are written under temporary names and renamed into place
 * (the tar.gz first), so `bundle.zip` exists only once both are complete.
 */
export function exportFiles(stateDir: string) {
  const root = path.join(path.resolve(stateDir), 'exports');
  return {
    root,
    dir: (jobId: string) => path.join(root, jobId),
    bundle: (jobId: string) => path.join(root, jobId, 'bundle.zip'),
    partial: (jobId: string) => path.join(root, jobId, 'bundle.zip.partial'),
    tarGz: (jobId: string) => path.join(root, jobId, 'bundle.tar.gz'),
    tarGzPartial: (jobId: string) => path.join(root, jobId, 'bundle.tar.gz.partial'),
    /** The bundle file of a format; `all`: the every-file twin of a bundle with reader access (access-variants.ts). */
    of(jobId: string, format: BundleFormat, include: BundleInclude = 'public'): string {
      const stem = include === 'all' ? 'bundle.all' : 'bundle';
      return path.join(root, jobId, `${stem}.${format}`);
    },
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
