import fs from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';
import { readRepoText } from '../repo-files.js';
import { MAX_CONFIG_BYTES } from './config-limits.js';

/**
 * What Mintlify leaves out of a build even without a `.mintignore` (its documented defaults, at
 * any depth as gitignore reads a pattern without a slash), plus
 * every dot-file and dot-directory: editor, CI and tool folders (`.github`, `.claude`, `.husky`…)
 * are never content, and their Markdown (pull-request templates…) must not become pages.
 */
export const DEFAULT_IGNORES = [
  '.*',
  'node_modules/',
  'build/',
  'dist/',
  'coverage/',
  'tmp/',
  'temp/',
  'README.md',
  'LICENSE.md',
  'CHANGELOG.md',
  'CONTRIBUTING.md',
];

/**
 * Version-control data: never content, whatever `.mintignore` says (`!.git` would otherwise copy
 * the whole history, with any secret ever committed, into the bundle as assets).
 */
const VCS_DIRS: ReadonlySet<string> = new Set(['.git', '.hg', '.svn']);

export interface RepoFiles {
  /** Every file the build may use, repository-relative with `/`, sorted (so builds are deterministic). */
  files: string[];
  /** Patterns read from `.mintignore`, kept for the record. */
  mintignore: string[];
  /** Symbolic links the walk met and left out (not ignored ones), sorted; a directory ends in `/`. */
  symlinks: string[];
}

/**
 * Walk the repository once, honouring the default ignores and `.mintignore` (gitignore syntax,
 * through the `ignore` package so negations and anchoring behave as in git). Symbolic links are
 * not followed: a link could pull files from outside the repository into a bundle.
 */
export function scanRepoFiles(repoRoot: string): RepoFiles {
  const mintignorePath = path.join(repoRoot, '.mintignore');
  const mintignore = fs.existsSync(mintignorePath)
    ? readRepoText(repoRoot, '.mintignore', MAX_CONFIG_BYTES)
        .split(/\r?\n/)
        .filter((l) => l.trim() !== '' && !l.startsWith('#'))
    : [];
  const ig = ignore().add(DEFAULT_IGNORES).add(mintignore);
  const files: string[] = [];
  const symlinks: string[] = [];

  // A list of directories still to read, not recursion: a repository thousands of levels deep
  // must not overflow the stack (the result is sorted below, so the order of the walk is free).
  const pending: string[] = [''];
  while (pending.length > 0) {
    const dirRel = pending.pop()!;
    const entries = fs.readdirSync(path.join(repoRoot, dirRel), { withFileTypes: true });
    for (const entry of entries) {
      if (VCS_DIRS.has(entry.name)) continue;
      const rel = dirRel === '' ? entry.name : `${dirRel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!ig.ignores(`${rel}/`)) pending.push(rel);
      } else if (entry.isFile()) {
        if (!ig.ignores(rel)) files.push(rel);
      } else if (entry.isSymbolicLink()) {
        const isDir = fs.statSync(path.join(repoRoot, rel), { throwIfNoEntry: false })?.isDirectory() === true;
        const shown = isDir ? `${rel}/` : rel;
        if (!ig.ignores(shown)) symlinks.push(shown);
      }
    }
  }
  files.sort();
  symlinks.sort();
  return { files, mintignore, symlinks };
}
