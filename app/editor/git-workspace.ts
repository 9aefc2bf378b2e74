import fs from 'node:fs';
import path from 'node:path';
import type { Project } from '../../data/stores/projects.js';
import { GitError, type Git } from '../agent/git.js';
import { errors } from '../errors.js';
import { versionDirName } from '../loader/sites-dir.js';
import { branchProblem, gitFor } from '../publish/checkout.js';
import { kindOf, listedPath, readablePath, writablePath } from './paths.js';
import { conflictOf, docsJsonAfterRename, gitBlobSha, serialized, type ChangeResult, type EditorAuthor, type EditorWorkspace, type FileRead, type SaveResult, type TreeEntry } from './workspace.js';

/** Who commits the editor's saves (the author is the signed-in writer). */
export const EDITOR_COMMITTER = { name: 'docs-appliance editor', email: 'editor@docs-appliance.invalid' };

/** A push git refused because the branch moved on the remote since the fetch. */
const MOVED = /non-fast-forward|fetch first|\[rejected\]|failed to update ref|cannot lock ref|stale info/i;
const PUSH_ATTEMPTS = 4;

export interface GitWorkspace extends EditorWorkspace {
  readonly source: 'git';
  createBranch(name: string, from: string): Promise<{ name: string; head: string }>;
  /** Merge `branch` into the default branch and push; the default branch's new head. */
  mergeIntoDefault(branch: string, author: EditorAuthor): Promise<{ merged: string }>;
}

const literal = (p: string) => `:(literal)${p}`;

/**
 * The editor's Git working clones: one per project and branch under `<stateDir>/editor/<project>/`,
 * apart from the publish checkouts (app/publish/checkout.ts, which a publish may wipe any time).
 * Every operation fetches the branch and resets the clone to its tip first, so a save is always
 * checked against, and committed on, what the remote has now.
 */
export function createGitWorkspace(stateDir: string, project: Project, docsPath: string): GitWorkspace {
  const repository = project.repository;
  if (!repository) throw errors.notAGitSource();
  const defaultBranch = project.branch ?? 'main';
  const git: Git = gitFor(project, undefined, EDITOR_COMMITTER);
  const dirOf = (branch: string) => path.join(stateDir, 'editor', project.id, versionDirName(branch));
  const inRepo = (rel: string) => (docsPath ? path.posix.join(docsPath.replace(/\/+$/, ''), rel) : rel);
  const checkBranch = (branch: string) => {
    const problem = typeof branch === 'string' ? branchProblem(branch) : 'is required';
    if (problem) throw errors.badRequest(`branch "${String(branch)}" ${problem}`);
  };

  const wrap = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      if (err instanceof GitError) throw errors.editorGitFailed(err.message);
      throw err;
    }
  };

  async function fetchInto(dir: string, branch: string): Promise<void> {
    await git.run(['fetch', '--quiet', '--no-tags', 'origin', `+refs/heads/${branch}:refs/remotes/origin/${branch}`], dir, repository!).catch((err: Error) => {
      if (/couldn't find remote ref|not our ref|no such ref/i.test(err.message)) throw errors.branchNotFound(branch);
      throw err;
    });
  }

  /** The branch's clone at the remote tip, nothing else in its working tree; the tip's commit. */
  async function sync(branch: string): Promise<{ dir: string; head: string }> {
    const dir = dirOf(branch);
    if (!fs.existsSync(path.join(dir, '.git'))) {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      await git.run(['init', '--quiet'], dir);
      await git.run(['remote', 'add', 'origin', repository!], dir);
    } else {
      await git.run(['remote', 'set-url', 'origin', repository!], dir);
      // A rebase or merge cut off by a crash would block every later checkout.
      await git.run(['rebase', '--abort'], dir).catch(() => undefined);
      await git.run(['merge', '--abort'], dir).catch(() => undefined);
    }
    await fetchInto(dir, branch);
    await git.run(['checkout', '--quiet', '--force', '--detach', `refs/remotes/origin/${branch}`], dir);
    await git.run(['clean', '-ffdxq'], dir);
    return { dir, head: (await git.run(['rev-parse', 'HEAD'], dir)).trim() };
  }

  const rootOf = (dir: string) => {
    const root = path.join(dir, docsPath);
    if (!fs.existsSync(root)) throw errors.editorFileNotFound(docsPath || '.');
    return root;
  };

  /** The last commit on `ref` that touched `rel` (who changed it). */
  async function lastChange(dir: string, ref: string, rel: string) {
    const out = await git.run(['log', '-1', '--format=%H%x00%an <%ae>%x00%s', ref, '--', literal(inRepo(rel))], dir).catch(() => '');
    const [commit = '', author = '', message = ''] = out.trim().split('\0');
    return commit ? { commit, author, message } : undefined;
  }

  /** The file at the working tree's HEAD (links inside the docs root followed), or null. */
  function current(root: string, rel: string): Buffer | null {
    const abs = path.join(root, rel);
    if (!fs.lstatSync(abs, { throwIfNoEntry: false })) return null;
    return fs.readFileSync(readablePath(root, rel));
  }

  async function staleCheck(dir: string, root: string, rel: string, baseSha: string | null, yours: Buffer | null): Promise<void> {
    const theirs = current(root, rel);
    const theirsSha = theirs === null ? null : gitBlobSha(theirs);
    if (theirsSha === baseSha) return;
    if (baseSha === null && theirs !== null) throw errors.editorFileExists(rel);
    throw errors.editConflict(conflictOf(rel, theirs, theirsSha, yours, await lastChange(dir, 'HEAD', rel)));
  }

  /**
   * Push HEAD to the branch. When the branch moved meanwhile (another file saved by someone
   * else), fetch, rebase this one commit onto the new tip and push again; a rebase that
   * conflicts is undone and reported as the conflict on `rel`.
   */
  async function pushRebasing(dir: string, branch: string, rel: string, yours: Buffer | null): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      try {
        await git.push(dir, repository!, branch);
        return (await git.run(['rev-parse', 'HEAD'], dir)).trim();
      } catch (err) {
        if (!(err instanceof GitError) || !MOVED.test(err.message) || attempt >= PUSH_ATTEMPTS) throw err;
      }
      await fetchInto(dir, branch);
      const rebased = await git.run(['rebase', '--quiet', `refs/remotes/origin/${branch}`], dir).then(
        () => true,
        () => false,
      );
      if (!rebased) {
        await git.run(['rebase', '--abort'], dir).catch(() => undefined);
        const tip = `refs/remotes/origin/${branch}`;
        const theirs = await git.run(['show', `${tip}:${inRepo(rel)}`], dir).then(
          (s) => Buffer.from(s),
          () => null,
        );
        throw errors.editConflict(conflictOf(rel, theirs, theirs && gitBlobSha(theirs), yours, await lastChange(dir, tip, rel)));
      }
    }
  }

  async function commitAndPush(dir: string, branch: string, rel: string, yours: Buffer | null, author: EditorAuthor, message: string, head: string): Promise<ChangeResult | undefined> {
    const staged = await git.run(['diff', '--cached', '--name-only', '-z'], dir);
    if (!staged) return undefined;
    void head;
    await git.commit(dir, message, author);
    const pushed = await pushRebasing(dir, branch, rel, yours);
    return { commit: pushed, head: pushed };
  }

  const ws: GitWorkspace = {
    source: 'git',
    defaultBranch,

    branches: () =>
      wrap(async () => {
        const out = await git.run(['ls-remote', '--heads', '--', repository], undefined, repository);
        return out
          .split('\n')
          .filter(Boolean)
          .map((line) => {
            const [head = '', ref = ''] = line.split('\t');
            return { name: ref.replace(/^refs\/heads\//, ''), head };
          })
          .sort((a, b) => (a.name === defaultBranch ? -1 : b.name === defaultBranch ? 1 : a.name.localeCompare(b.name)));
      }),

    tree: (branch) =>
      wrap(() => {
        checkBranch(branch);
        return serialized(dirOf(branch), async () => {
          const { dir, head } = await sync(branch);
          rootOf(dir);
          const prefix = docsPath ? `${docsPath.replace(/\/+$/, '')}/` : '';
          const out = await git.run(['ls-tree', '-r', '-l', '-z', 'HEAD', '--', ...(prefix ? [prefix] : [])], dir);
          const entries: TreeEntry[] = [];
          for (const rec of out.split('\0')) {
            const m = /^(\d+) (\w+) [0-9a-f]+\s+(\S+)\t(.*)$/s.exec(rec);
            // Regular files only: a link or a submodule is not something the editor opens.
            if (!m || m[2] !== 'blob' || (m[1] !== '100644' && m[1] !== '100755')) continue;
            const rel = m[4]!.slice(prefix.length);
            if (!listedPath(rel)) continue;
            entries.push({ path: rel, kind: kindOf(rel), size: Number(m[3]) });
          }
          entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
          return { head, entries };
        });
      }),

    read: (branch, rel) =>
      wrap(() => {
        checkBranch(branch);
        return serialized(dirOf(branch), async (): Promise<FileRead> => {
          const { dir, head } = await sync(branch);
          const content = fs.readFileSync(readablePath(rootOf(dir), rel));
          return { path: rel, content, sha: gitBlobSha(content), head };
        });
      }),

    write: (branch, rel, content, baseSha, author, message) =>
      wrap(() => {
        checkBranch(branch);
        return serialized(dirOf(branch), async (): Promise<SaveResult> => {
          const { dir, head } = await sync(branch);
          const root = rootOf(dir);
          const target = writablePath(root, rel);
          await staleCheck(dir, root, rel, baseSha, content);
          fs.mkdirSync(path.dirname(target), { recursive: true });
          fs.writeFileSync(target, content);
          await git.run(['add', '--', literal(inRepo(rel))], dir);
          const done = await commitAndPush(dir, branch, rel, content, author, message, head);
          return { path: rel, sha: gitBlobSha(content), commit: done?.commit ?? null, head: done?.head ?? head };
        });
      }),

    remove: (branch, rel, baseSha, author, message) =>
      wrap(() => {
        checkBranch(branch);
        return serialized(dirOf(branch), async (): Promise<ChangeResult> => {
          const { dir, head } = await sync(branch);
          const root = rootOf(dir);
          writablePath(root, rel);
          if (current(root, rel) === null) throw errors.editorFileNotFound(rel);
          await staleCheck(dir, root, rel, baseSha, null);
          await git.run(['rm', '--quiet', '--', literal(inRepo(rel))], dir);
          return (await commitAndPush(dir, branch, rel, null, author, message, head)) ?? { commit: null, head };
        });
      }),

    rename: (branch, from, to, redirect, author) =>
      wrap(() => {
        checkBranch(branch);
        return serialized(dirOf(branch), async (): Promise<ChangeResult> => {
          const { dir, head } = await sync(branch);
          const root = rootOf(dir);
          writablePath(root, from);
          const target = writablePath(root, to);
          if (current(root, from) === null) throw errors.editorFileNotFound(from);
          if (fs.lstatSync(target, { throwIfNoEntry: false })) throw errors.editorFileExists(to);
          fs.mkdirSync(path.dirname(target), { recursive: true });
          await git.run(['mv', '--', inRepo(from), inRepo(to)], dir);
          const config = path.join(root, 'docs.json');
          if (fs.lstatSync(config, { throwIfNoEntry: false })?.isFile()) {
            const next = docsJsonAfterRename(fs.readFileSync(config, 'utf8'), from, to, redirect);
            if (next !== undefined) {
              fs.writeFileSync(config, next);
              await git.run(['add', '--', literal(inRepo('docs.json'))], dir);
            }
          }
          const message = `Rename ${from} to ${to}${redirect ? ' (with a redirect)' : ''}`;
          return (await commitAndPush(dir, branch, to, null, author, message, head)) ?? { commit: null, head };
        });
      }),

    docsRoot: (branch) =>
      wrap(() => {
        checkBranch(branch);
        return serialized(dirOf(branch), async () => rootOf((await sync(branch)).dir));
      }),

    createBranch: (name, from) =>
      wrap(async () => {
        checkBranch(name);
        checkBranch(from);
        const existing = await ws.branches();
        if (existing.some((b) => b.name === name)) throw errors.branchExists(name);
        return serialized(dirOf(from), async () => {
          const { dir, head } = await sync(from);
          // Without --force: a branch someone created meanwhile is not overwritten.
          await git.run(['push', '--quiet', '--no-verify', 'origin', `${head}:refs/heads/${name}`], dir, repository).catch((err: Error) => {
            if (MOVED.test(err.message) || /already exists/i.test(err.message)) throw errors.branchExists(name);
            throw err;
          });
          return { name, head };
        });
      }),

    mergeIntoDefault: (branch, author) =>
      wrap(() => {
        checkBranch(branch);
        return serialized(dirOf(defaultBranch), async () => {
          for (let attempt = 1; ; attempt++) {
            const { dir, head } = await sync(defaultBranch);
            await fetchInto(dir, branch);
            const theirs = `refs/remotes/origin/${branch}`;
            const merged = await git.run(['merge-base', '--is-ancestor', theirs, 'HEAD'], dir).then(
              () => true,
              () => false,
            );
            if (merged) return { merged: head };
            const clean = await git.run(['merge', '--no-ff', '--no-commit', '--quiet', theirs], dir).then(
              () => true,
              () => false,
            );
            if (!clean) {
              const files = (await git.run(['diff', '--name-only', '--diff-filter=U', '-z'], dir).catch(() => '')).split('\0').filter(Boolean);
              await git.run(['merge', '--abort'], dir).catch(() => undefined);
              throw errors.mergeConflict(files.map((f) => (docsPath && f.startsWith(`${docsPath.replace(/\/+$/, '')}/`) ? f.slice(docsPath.replace(/\/+$/, '').length + 1) : f)));
            }
            await git.commit(dir, `Publish ${branch} (merged by ${author.name})`, author);
            try {
              await git.push(dir, repository, defaultBranch);
              return { merged: (await git.run(['rev-parse', 'HEAD'], dir)).trim() };
            } catch (err) {
              // The default branch moved meanwhile: merge again onto its new tip.
              if (!(err instanceof GitError) || !MOVED.test(err.message) || attempt >= PUSH_ATTEMPTS) throw err;
            }
          }
        });
      }),
  };
  return ws;
}
