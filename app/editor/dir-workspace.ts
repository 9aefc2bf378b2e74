import fs from 'node:fs';
import path from 'node:path';
import { errors } from '../errors.js';
import { kindOf, listedPath, readablePath, writablePath } from './paths.js';
import { conflictOf, DIRECTORY_BRANCH, docsJsonAfterRename, serialized, sha256, type ChangeResult, type EditorAuthor, type EditorWorkspace, type TreeEntry } from './workspace.js';

/** Records one directory write in the console's audit log (app/console/audit.ts), after it happened. */
export type DirectoryAudit = (action: string, target: string, detail: Record<string, unknown>) => void;

/** Most files the tree lists (a docs root is pages and images, not a build output). */
const MAX_ENTRIES = 20_000;

/**
 * A directory-source project (`sourceDir`): saves write the directory, one audited write each
 * (there is no commit history to name who changed what). The only branch is "(directory)"; a
 * file's `sha` is the SHA-256 of its bytes, and the head a digest of the tree's names, sizes and
 * modification times, so a writer sees that something changed.
 */
export function createDirWorkspace(root: string, audit: DirectoryAudit): EditorWorkspace {
  const checkBranch = (branch: string) => {
    if (branch !== DIRECTORY_BRANCH) throw errors.notAGitSource();
  };

  function walk(): TreeEntry[] {
    const out: TreeEntry[] = [];
    const visit = (dir: string, prefix: string) => {
      for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
        const rel = prefix ? `${prefix}/${d.name}` : d.name;
        if (!listedPath(rel) || out.length >= MAX_ENTRIES) continue;
        // Links are not followed: a link out of the docs root must not list what is outside.
        if (d.isDirectory()) visit(path.join(dir, d.name), rel);
        else if (d.isFile()) out.push({ path: rel, kind: kindOf(rel), size: fs.statSync(path.join(dir, d.name)).size });
      }
    };
    visit(fs.realpathSync(root), '');
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  const headOf = (entries: TreeEntry[]) => sha256(Buffer.from(entries.map((e) => `${e.path}\0${e.size}\0${fs.statSync(path.join(root, e.path)).mtimeMs}`).join('\n')));

  const current = (rel: string): Buffer | null => (fs.lstatSync(path.join(root, rel), { throwIfNoEntry: false }) ? fs.readFileSync(readablePath(root, rel)) : null);

  function staleCheck(rel: string, baseSha: string | null, yours: Buffer | null) {
    const theirs = current(rel);
    const theirsSha = theirs === null ? null : sha256(theirs);
    if (theirsSha === baseSha) return;
    if (baseSha === null && theirs !== null) throw errors.editorFileExists(rel);
    throw errors.editConflict(conflictOf(rel, theirs, theirsSha, yours));
  }

  /** Write through a temporary file and a rename: a reader never sees half a page. */
  function writeAtomic(target: string, content: Buffer) {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const tmp = path.join(path.dirname(target), `.editor-${process.pid}-${Date.now()}.tmp`);
    fs.writeFileSync(tmp, content);
    fs.renameSync(tmp, target);
  }

  const key = `dir:${root}`;
  const head = () => headOf(walk());

  return {
    source: 'directory',
    defaultBranch: DIRECTORY_BRANCH,
    branches: async () => [{ name: DIRECTORY_BRANCH, head: head() }],
    tree: async (branch) => {
      checkBranch(branch);
      const entries = walk();
      return { head: headOf(entries), entries };
    },
    read: async (branch, rel) => {
      checkBranch(branch);
      const content = fs.readFileSync(readablePath(root, rel));
      return { path: rel, content, sha: sha256(content), head: head() };
    },
    write: (branch, rel, content, baseSha, _author: EditorAuthor, message) =>
      serialized(key, async () => {
        checkBranch(branch);
        const target = writablePath(root, rel);
        staleCheck(rel, baseSha, content);
        writeAtomic(target, content);
        const sha = sha256(content);
        audit(baseSha === null ? 'editor.create' : 'editor.save', rel, { sha, bytes: content.length, message });
        return { path: rel, sha, commit: null, head: head() };
      }),
    remove: (branch, rel, baseSha, _author, message) =>
      serialized(key, async (): Promise<ChangeResult> => {
        checkBranch(branch);
        const target = writablePath(root, rel);
        if (current(rel) === null) throw errors.editorFileNotFound(rel);
        staleCheck(rel, baseSha, null);
        fs.rmSync(target);
        audit('editor.delete', rel, { sha: baseSha, message });
        return { commit: null, head: head() };
      }),
    rename: (branch, from, to, redirect) =>
      serialized(key, async (): Promise<ChangeResult> => {
        checkBranch(branch);
        const source = writablePath(root, from);
        const target = writablePath(root, to);
        if (current(from) === null) throw errors.editorFileNotFound(from);
        if (fs.lstatSync(target, { throwIfNoEntry: false })) throw errors.editorFileExists(to);
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.renameSync(source, target);
        const config = path.join(root, 'docs.json');
        if (fs.lstatSync(config, { throwIfNoEntry: false })?.isFile()) {
          const next = docsJsonAfterRename(fs.readFileSync(config, 'utf8'), from, to, redirect);
          if (next !== undefined) writeAtomic(config, Buffer.from(next));
        }
        audit('editor.rename', from, { to, redirect });
        return { commit: null, head: head() };
      }),
    docsRoot: async (branch) => {
      checkBranch(branch);
      return root;
    },
  };
}
