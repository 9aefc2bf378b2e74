import crypto from 'node:crypto';
import { createTwoFilesPatch } from 'diff';
import type { EntryKind } from './paths.js';

/** The branch name a directory-source project's editor works on (it has no branches). */
export const DIRECTORY_BRANCH = '(directory)';

/** Who makes a change: a commit's author, and the audit log's actor. */
export interface EditorAuthor {
  name: string;
  email: string;
}

export interface TreeEntry {
  path: string;
  kind: EntryKind;
  size: number;
}

export interface FileRead {
  path: string;
  content: Buffer;
  sha: string;
  head: string;
}

/** A change made: `commit` is null for a directory write (it is audited instead). */
export interface ChangeResult {
  commit: string | null;
  head: string;
}

export interface SaveResult extends ChangeResult {
  path: string;
  sha: string;
}

/**
 * The docs of one project as the editor changes them: a Git working clone per branch
 * (git-workspace.ts) or the project's directory (dir-workspace.ts). Every call checks `rel`
 * against the docs root first; a stale `baseSha` throws EDIT_CONFLICT with the other change.
 */
export interface EditorWorkspace {
  readonly source: 'git' | 'directory';
  readonly defaultBranch: string;
  branches(): Promise<Array<{ name: string; head: string }>>;
  tree(branch: string): Promise<{ head: string; entries: TreeEntry[] }>;
  read(branch: string, rel: string): Promise<FileRead>;
  /** `baseSha` null: create a new file (refused when it exists). */
  write(branch: string, rel: string, content: Buffer, baseSha: string | null, author: EditorAuthor, message: string): Promise<SaveResult>;
  remove(branch: string, rel: string, baseSha: string, author: EditorAuthor, message: string): Promise<ChangeResult>;
  /** Move a file; a page's references in docs.json follow it, and with `redirect` its old URL redirects to the new one. */
  rename(branch: string, from: string, to: string, redirect: boolean, author: EditorAuthor): Promise<ChangeResult>;
  /** The docs root of `branch` on disk, up to date (the live preview renders from it). */
  docsRoot(branch: string): Promise<string>;
}

/** Git's blob id of `content` (what `git hash-object` prints), without running git. */
export function gitBlobSha(content: Buffer): string {
  return crypto.createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

export const sha256 = (content: Buffer): string => crypto.createHash('sha256').update(content).digest('hex');

/** What a stale save is refused with: their version, and the unified diff from theirs to yours. */
export function conflictOf(rel: string, theirs: Buffer | null, theirsSha: string | null, yours: Buffer | null, by?: { commit: string; author: string; message: string }) {
  const a = theirs?.toString('utf8') ?? '';
  const b = yours?.toString('utf8') ?? '';
  return {
    path: rel,
    theirs: theirs === null ? null : a,
    theirsSha,
    diff: createTwoFilesPatch(`theirs/${rel}`, `yours/${rel}`, a, b, theirsSha ?? 'deleted', 'yours'),
    ...(by ? { by } : {}),
  };
}

/** One change at a time per key (a branch's working clone, a directory): saves queue, never interleave. */
const chains = new Map<string, Promise<unknown>>();
export function serialized<T>(key: string, work: () => Promise<T>): Promise<T> {
  const before = chains.get(key) ?? Promise.resolve();
  const run = before.then(work, work);
  const tail = run.catch(() => undefined);
  chains.set(key, tail);
  void tail.then(() => {
    if (chains.get(key) === tail) chains.delete(key);
  });
  return run;
}

/** A page's reference in docs.json navigation: its path without `.mdx`/`.md`. */
export const pageRef = (rel: string): string | undefined => (/\.(mdx|md)$/i.test(rel) ? rel.replace(/\.(mdx|md)$/i, '') : undefined);

/**
 * docs.json after a page moved from `from` to `to`: every navigation entry naming the old page
 * names the new one, and with `redirect` `{source, destination}` is appended to `redirects`.
 * Undefined when nothing changes. The text is re-serialized with two-space indentation.
 */
export function docsJsonAfterRename(text: string, from: string, to: string, redirect: boolean): string | undefined {
  const oldRef = pageRef(from);
  const newRef = pageRef(to);
  if (!oldRef || !newRef) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return undefined;
  const root = doc as Record<string, unknown>;
  let changed = false;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (v === oldRef || v === `/${oldRef}`) {
        changed = true;
        return v.startsWith('/') ? `/${newRef}` : newRef;
      }
      return v;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  if (root.navigation !== undefined) root.navigation = walk(root.navigation);
  if (redirect) {
    const list = Array.isArray(root.redirects) ? root.redirects : [];
    root.redirects = [...list, { source: `/${oldRef}`, destination: `/${newRef}` }];
    changed = true;
  }
  return changed ? `${JSON.stringify(root, null, 2)}\n` : undefined;
}
