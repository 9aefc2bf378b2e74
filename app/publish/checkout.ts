import fs from 'node:fs';
import path from 'node:path';
import type { Project } from '../../data/stores/projects.js';
import type { FilesChanged } from '../../data/stores/publishes.js';
import { createGit, GitError } from '../agent/git.js';
import { versionDirName } from '../loader/sites-dir.js';

/** The user name each Git host expects beside a token in Basic auth (as the agent sends it). */
const TOKEN_USER = { gitea: 'oauth2', gitlab: 'oauth2', github: 'x-access-token' } as const;

export interface CheckedOut {
  /** The working tree (the whole repository; the docs root is `docsPath` inside it). */
  dir: string;
  commit: string;
  message: string;
  author: string;
}

/** A branch name git accepts and that cannot be read as an option or a revision range. */
export function branchProblem(branch: string): string | undefined {
  if (!branch || branch.length > 200) return 'must be 1-200 characters';
  if (branch.startsWith('-') || branch.startsWith('/') || branch.endsWith('/') || branch.endsWith('.') || branch.endsWith('.lock')) return 'is not a valid branch name';
  // git check-ref-format's rules, checked here so no invalid name ever reaches a git command line.
  if (/[\x00-\x20\x7f~^:?*[\\]|\.\.|@\{|\/\/|\/\./.test(branch) || branch === '@') return 'is not a valid branch name';
  return undefined;
}

/** The git client with the credentials the agent uses for this project's host. */
export function gitFor(project: Project, signal?: AbortSignal, identity?: { name: string; email: string }) {
  const token = project.gitHost?.tokenEnv ? process.env[project.gitHost.tokenEnv] : undefined;
  return createGit({ token, tokenUser: project.gitHost ? TOKEN_USER[project.gitHost.type] : undefined, signal, identity });
}

export const checkoutDir = (stateDir: string, projectId: string, branch: string) => path.join(stateDir, 'checkouts', projectId, versionDirName(branch));

/**
 * Bring the state dir's checkout of one branch up to date: created once (`git init` + the remote),
 * then only that branch is fetched, incrementally, and its tree checked out detached, with
 * anything else in the working tree removed. No other branch or tag is ever fetched.
 */
export async function syncCheckout(stateDir: string, project: Project, branch: string, signal?: AbortSignal): Promise<CheckedOut> {
  const repository = project.repository;
  if (!repository) throw new GitError('the project has no repository');
  const problem = branchProblem(branch);
  if (problem) throw new GitError(`branch "${branch}" ${problem}`);
  const git = gitFor(project, signal);
  const dir = checkoutDir(stateDir, project.id, branch);
  if (!fs.existsSync(path.join(dir, '.git'))) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    await git.run(['init', '--quiet'], dir);
    await git.run(['remote', 'add', 'origin', repository], dir);
  } else {
    // The repository URL may have changed in the config since the clone.
    await git.run(['remote', 'set-url', 'origin', repository], dir);
  }
  const remoteRef = `refs/remotes/origin/${branch}`;
  await git.run(['fetch', '--quiet', '--no-tags', '--prune', 'origin', `+refs/heads/${branch}:${remoteRef}`], dir, repository).catch((err: Error) => {
    if (/couldn't find remote ref|not our ref|no such ref/i.test(err.message)) throw new GitError(`branch "${branch}" does not exist in the repository`);
    throw err;
  });
  await git.run(['checkout', '--quiet', '--force', '--detach', remoteRef], dir);
  await git.run(['clean', '-ffdxq'], dir);
  const [commit = '', author = '', message = ''] = (await git.run(['log', '-1', '--format=%H%x00%an%x00%s', remoteRef], dir)).trim().split('\0');
  return { dir, commit, message, author };
}

/** Files that differ between two commits of the checkout (empty lists when `from` is not there). */
export async function filesChanged(dir: string, project: Project, from: string | null, to: string): Promise<FilesChanged | null> {
  if (!from || from === to) return from ? { added: [], modified: [], removed: [] } : null;
  const git = gitFor(project);
  const known = await git.run(['cat-file', '-e', `${from}^{commit}`], dir).then(
    () => true,
    () => false,
  );
  if (!known) return null;
  const out = await git.run(['diff', '--name-status', '--no-renames', '-z', from, to], dir);
  const parts = out.split('\0').filter(Boolean);
  const changed: FilesChanged = { added: [], modified: [], removed: [] };
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const file = parts[i + 1]!;
    if (parts[i] === 'A') changed.added.push(file);
    else if (parts[i] === 'D') changed.removed.push(file);
    else changed.modified.push(file);
  }
  return changed;
}

/** The branch head on the remote, without fetching (the cron poll). */
export async function remoteHead(project: Project, branch: string, signal?: AbortSignal): Promise<string | undefined> {
  if (!project.repository) return undefined;
  const git = gitFor(project, signal);
  const out = await git.run(['ls-remote', '--heads', '--', project.repository, `refs/heads/${branch}`], undefined, project.repository);
  return out.split('\n').find((l) => l.endsWith(`\trefs/heads/${branch}`))?.split('\t')[0];
}
