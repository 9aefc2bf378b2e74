import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AutomationConfig } from '../../config/automations.js';
import type { Project } from '../../data/stores/projects.js';
import { AGENT_AUTHOR, createGit, GitError } from '../agent/git.js';

/** Commits listed per context repository; older ones are counted, not listed. */
export const MAX_COMMITS_LISTED = 50;
/** Files in a repository's diffstat; the rest are summed up in git's last line. */
export const MAX_DIFFSTAT_FILES = 40;
/** A first run (no completed run before it) looks back this many commits. */
export const FIRST_RUN_COMMITS = 20;
/** Characters of the whole change list handed to the agent. */
export const MAX_CHANGES_CHARS = 16_000;

const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
const TOKEN_USER = { gitea: 'oauth2', gitlab: 'oauth2', github: 'x-access-token' } as const;

export interface RepositoryChange {
  url: string;
  branch: string | null;
  head: string;
  /** The commit the last completed run saw; null on a first run (or when it is no longer in the history). */
  since: string | null;
  /** Commits since then, newest first (at most MAX_COMMITS_LISTED), and how many there are in all. */
  commits: Array<{ sha: string; subject: string; author: string; email: string }>;
  commitCount: number;
  diffstat: string;
}

export class ContextUnavailableError extends Error {
  override name = 'ContextUnavailableError';
}

const originOf = (u: string) => {
  try {
    return /^https?:\/\//i.test(u) ? new URL(u).origin : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The git client for one context repository: the project's Git host token goes only to the host
 * of the project's own repository (a context repository elsewhere is read without it).
 */
export function contextGit(project: Project, url: string, signal: AbortSignal) {
  const sameHost = originOf(url) !== undefined && originOf(url) === originOf(project.repository ?? '');
  const token = sameHost && project.gitHost?.tokenEnv ? process.env[project.gitHost.tokenEnv] : undefined;
  return createGit({ token, tokenUser: project.gitHost ? TOKEN_USER[project.gitHost.type] : undefined, signal });
}

/** Where a context repository's fetched history is kept: one bare repository per URL, fetched incrementally. */
export const contextCacheDir = (stateDir: string, url: string) => path.join(stateDir, 'automations', 'context', crypto.createHash('sha256').update(url).digest('hex').slice(0, 24));

/**
 * The repositories whose changes a run lists: the context repositories, and the project's own
 * repository for `translate-changes` (the pages that changed are what it translates) and for a
 * push trigger on it (the push is what the run is about), at the branch it follows.
 */
export function changeSources(project: Project, automation: AutomationConfig): Array<{ url: string; branch?: string | undefined }> {
  const onOwnPush = automation.trigger.type === 'push' && automation.trigger.repository === undefined;
  const own = (automation.predefined === 'translate-changes' || onOwnPush) && project.repository && !automation.contextRepositories.some((r) => r.url === project.repository);
  const branch = (automation.trigger.type === 'push' ? automation.trigger.branch : undefined) ?? project.branch ?? undefined;
  return [...automation.contextRepositories, ...(own ? [{ url: project.repository!, branch }] : [])];
}

/**
 * What changed in each context repository since the heads the last completed run saw: the
 * tracked branch is fetched into the state dir's cache (only that branch, no tags), its commits
 * since then listed and a diffstat made, both bounded. A repository that cannot be read fails the
 * whole reading, naming it (a run on half the context would report less than what changed).
 */
export async function readContextChanges(
  stateDir: string,
  project: Project,
  automation: AutomationConfig,
  previous: Readonly<Record<string, string>> | null,
  signal: AbortSignal,
): Promise<{ heads: Record<string, string>; changes: RepositoryChange[] }> {
  const heads: Record<string, string> = {};
  const changes: RepositoryChange[] = [];
  for (const repo of changeSources(project, automation)) {
    const git = contextGit(project, repo.url, signal);
    const dir = contextCacheDir(stateDir, repo.url);
    try {
      if (!fs.existsSync(path.join(dir, 'HEAD'))) {
        fs.mkdirSync(dir, { recursive: true });
        await git.run(['init', '--quiet', '--bare', dir], undefined);
      }
      const source = repo.branch ? `refs/heads/${repo.branch}` : 'HEAD';
      await git.run(['fetch', '--quiet', '--no-tags', '--', repo.url, `+${source}:refs/context/head`], dir, repo.url);
      const head = (await git.run(['rev-parse', 'refs/context/head'], dir)).trim();
      heads[repo.url] = head;
      const before = previous?.[repo.url] ?? null;
      if (before === head) continue;
      const known = before !== null && (await git.run(['merge-base', '--is-ancestor', before, head], dir).then(() => true, () => false));
      const total = Number((await git.run(['rev-list', '--count', head], dir)).trim());
      const from = known ? before : total > FIRST_RUN_COMMITS ? `${head}~${FIRST_RUN_COMMITS}` : EMPTY_TREE;
      const range = from === EMPTY_TREE ? [head] : [`${from}..${head}`];
      // The agent's own commits (a merged pull request of an automation) are not changes to act on:
      // left out of the list and the count, so merging a run's pull request does not start another.
      const count = async (...extra: string[]) => Number((await git.run(['rev-list', '--count', '--no-merges', ...extra, ...range], dir)).trim());
      const commitCount = (await count()) - (await count(`--author=<${AGENT_AUTHOR.email}>`));
      if (commitCount === 0) continue;
      const log = await git.run(['log', `--max-count=${MAX_COMMITS_LISTED + 20}`, '--no-merges', '--format=%H%x1f%s%x1f%an%x1f%ae%x1e', ...range], dir);
      const commits = log
        .split('\x1e')
        .map((l) => l.trim())
        .filter(Boolean)
        .map((l) => {
          const [sha = '', subject = '', author = '', email = ''] = l.split('\x1f');
          return { sha, subject, author, email };
        })
        .filter((c) => c.email !== AGENT_AUTHOR.email)
        .slice(0, MAX_COMMITS_LISTED);
      const diffstat = (await git.run(['diff', '--no-color', '--stat=120', `--stat-count=${MAX_DIFFSTAT_FILES}`, from, head], dir)).trimEnd();
      changes.push({ url: repo.url, branch: repo.branch ?? null, head, since: known ? before : null, commits, commitCount, diffstat });
    } catch (err) {
      if (err instanceof GitError) throw new ContextUnavailableError(`context repository ${repo.url}: ${git.scrub(err.message)}`);
      throw err;
    }
  }
  return { heads, changes };
}

/** One line for the run list and logs: "3 commits in https://git/acme/api.git", or "nothing changed". */
export function changesLine(sources: number, changes: readonly RepositoryChange[]): string {
  if (!sources) return 'no context repositories: the instruction alone';
  if (!changes.length) return 'nothing changed in the context repositories since the last completed run';
  return changes.map((c) => `${c.commitCount} commit${c.commitCount === 1 ? '' : 's'} in ${c.url}${c.since ? '' : ' (first run: the latest ones)'}`).join('; ');
}
