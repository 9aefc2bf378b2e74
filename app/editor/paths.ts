import fs from 'node:fs';
import path from 'node:path';
import { errors } from '../errors.js';

/** Longest path the editor takes (a page path, not a file's content). */
const MAX_PATH = 400;

/**
 * A path the browser sent, checked before it touches a disk: relative to the docs root,
 * `/`-separated, no `..`, no empty or `.` parts, no `.git` anywhere, no control characters, no
 * backslash (a Windows separator on a Linux disk is a file name no writer means). The normalized
 * form is returned; a refusal throws EDITOR_PATH_REFUSED.
 */
export function checkRelPath(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length === 0) throw errors.editorPathRefused('a path is required');
  if (raw.length > MAX_PATH) throw errors.editorPathRefused(`longer than ${MAX_PATH} characters`);
  if (raw.startsWith('/') || /^[a-zA-Z]:/.test(raw)) throw errors.editorPathRefused('absolute paths are not taken; give a path inside the docs root');
  if (/[\x00-\x1f\x7f\\]/.test(raw)) throw errors.editorPathRefused('control characters and backslashes are not taken');
  const parts = raw.split('/');
  for (const part of parts) {
    if (part === '' || part === '.') throw errors.editorPathRefused('empty or "." path segments are not taken');
    if (part === '..') throw errors.editorPathRefused('".." leads outside the docs root');
    if (part.toLowerCase() === '.git') throw errors.editorPathRefused('.git is not part of the docs');
  }
  return parts.join('/');
}

const isInside = (root: string, abs: string) => abs === root || abs.startsWith(root + path.sep);

/**
 * The absolute path of `rel` under `root` for a write, with the renderer's real-path rule
 * (renderer/repo-files.ts): the deepest existing ancestor, links followed, is still inside the
 * root's real path, and the file itself, if it exists, is a regular file and not a link. So a
 * link committed in the repository cannot carry a write outside the docs root.
 */
export function writablePath(root: string, rel: string): string {
  const realRoot = fs.realpathSync(root);
  const target = path.join(realRoot, rel);
  let probe = path.dirname(target);
  while (!fs.existsSync(probe)) probe = path.dirname(probe);
  if (!isInside(realRoot, fs.realpathSync(probe))) throw errors.editorPathRefused(`${rel} leads outside the docs root through a symbolic link`);
  const st = fs.lstatSync(target, { throwIfNoEntry: false });
  if (st?.isSymbolicLink()) throw errors.editorPathRefused(`${rel} is a symbolic link; the editor does not write through links`);
  if (st && !st.isFile()) throw errors.editorPathRefused(`${rel} is not a file`);
  return target;
}

/** The absolute path of an existing regular file `rel` for a read (links inside the root are followed, as the renderer does). */
export function readablePath(root: string, rel: string): string {
  const realRoot = fs.realpathSync(root);
  const lexical = path.join(realRoot, rel);
  let real: string;
  try {
    real = fs.realpathSync(lexical);
  } catch {
    throw errors.editorFileNotFound(rel);
  }
  if (!isInside(realRoot, real) || real === realRoot) throw errors.editorPathRefused(`${rel} is a link to a file outside the docs root`);
  if (real.split(path.sep).includes('.git')) throw errors.editorPathRefused('.git is not part of the docs');
  if (!fs.statSync(real).isFile()) throw errors.editorFileNotFound(rel);
  return real;
}

export type EntryKind = 'page' | 'snippet' | 'image' | 'config' | 'other';

const IMAGE = /\.(png|jpe?g|gif|webp|svg|avif|ico)$/i;

/** What the file tree shows a file as. */
export function kindOf(rel: string): EntryKind {
  if (rel === 'docs.json' || rel === 'mint.json') return 'config';
  if (/^snippets\//.test(rel) && /\.(mdx|md|jsx|tsx|js)$/i.test(rel)) return 'snippet';
  if (/\.(mdx|md)$/i.test(rel)) return 'page';
  if (IMAGE.test(rel)) return 'image';
  return 'other';
}

/** Files the tree lists: everything in the docs root but dot-directories and node_modules. */
export function listedPath(rel: string): boolean {
  return !rel.split('/').some((p) => p.startsWith('.') || p === 'node_modules');
}
