/**
 * The one way the renderer reads a file of the docs repository (the root config, `$ref`s,
 * snippets, pages, stylesheets, scripts, assets). A repository is content someone else wrote: a
 * `docs.json` that is a link to `/etc/passwd` must not be read, and so no message can ever quote
 * a file outside the repository. Every read resolves the real path (links followed), checks that
 * it is still inside the repository's real root, opens it without following a link in its last
 * part, and accepts only a regular file (never a FIFO that would block, nor a device) under a size cap.
 */
import fs from 'node:fs';
import path from 'node:path';
import { RenderError } from './types.js';
import { recordProbe, recordRead, recording } from './memo/read-log.js';
import { realRoot } from './repo-root.js';

/** Largest text file read whole (config, page, snippet, stylesheet, script). */
export const MAX_REPO_TEXT_BYTES = 32 * 1024 * 1024;


export type RepoFileProblem = 'missing' | 'outside' | 'not-a-file' | 'too-large';

/** A repository file that cannot be read; the message names the file, never its content. */
export class RepoFileError extends RenderError {
  constructor(
    readonly problem: RepoFileProblem,
    file: string,
    message: string,
  ) {
    super(message, { file });
  }
}

/**
 * The real absolute path of a repository file, checked: inside the repository after following
 * links. `rel` is repository-relative with `/`. Throws RepoFileError.
 */
export function resolveRepoFile(repoRoot: string, rel: string): string {
  recordProbe(repoRoot, rel);
  const root = realRoot(repoRoot);
  const lexical = path.resolve(root, rel);
  if (!isInside(root, lexical)) throw new RepoFileError('outside', rel, `${rel} is outside the repository; it is not read`);
  let real: string;
  try {
    // realpath(3) in one call: the JS version lstat()s each component from JavaScript, and every
    // page is read twice (plan, render).
    real = fs.realpathSync.native(lexical);
  } catch {
    throw new RepoFileError('missing', rel, `${rel} not found`);
  }
  if (!isInside(root, real)) {
    throw new RepoFileError('outside', rel, `${rel} is a link to a file outside the repository; it is not read`);
  }
  return real;
}

function isInside(root: string, abs: string): boolean {
  return abs.startsWith(root + path.sep);
}

/** Whether `rel` is a regular file inside the repository (a quiet check, for lookups by candidates). */
export function isRepoFile(repoRoot: string, rel: string): boolean {
  try {
    return fs.statSync(resolveRepoFile(repoRoot, rel)).isFile();
  } catch {
    return false;
  }
}

/**
 * An open descriptor on a checked regular file, with its stat. The caller closes it. The open
 * never follows a link (the real path has none left) and never waits on a FIFO.
 */
export function openRepoFile(repoRoot: string, rel: string): { fd: number; stat: fs.Stats } {
  const real = resolveRepoFile(repoRoot, rel);
  let fd: number;
  try {
    fd = fs.openSync(real, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch {
    throw new RepoFileError('not-a-file', rel, `${rel} cannot be opened as a file`);
  }
  const stat = fs.fstatSync(fd);
  if (!stat.isFile()) {
    fs.closeSync(fd);
    throw new RepoFileError('not-a-file', rel, `${rel} is not a regular file`);
  }
  return { fd, stat };
}

/** The bytes of a checked repository file of at most `maxBytes`. */
export function readRepoFile(repoRoot: string, rel: string, maxBytes = MAX_REPO_TEXT_BYTES): Buffer {
  if (!recording()) return readChecked(repoRoot, rel, maxBytes);
  try {
    const bytes = readChecked(repoRoot, rel, maxBytes);
    recordRead(rel, { bytes });
    return bytes;
  } catch (err) {
    recordRead(rel, { problem: err instanceof RepoFileError ? err.problem : 'error' });
    throw err;
  }
}

function readChecked(repoRoot: string, rel: string, maxBytes: number): Buffer {
  const { fd, stat } = openRepoFile(repoRoot, rel);
  try {
    if (stat.size > maxBytes) {
      throw new RepoFileError('too-large', rel, `${rel} is ${mib(stat.size)}, over the ${mib(maxBytes)} a file read whole may have`);
    }
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

export function readRepoText(repoRoot: string, rel: string, maxBytes = MAX_REPO_TEXT_BYTES): string {
  return readRepoFile(repoRoot, rel, maxBytes).toString('utf8');
}

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(bytes < 1024 * 1024 ? 2 : 0)} MiB`;
}
