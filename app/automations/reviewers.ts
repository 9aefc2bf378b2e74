import type { Project } from '../../data/stores/projects.js';
import { AGENT_AUTHOR } from '../agent/git.js';
import { createGitHostClient, GitHostError } from '../agent/git-host.js';
import type { Logger } from '../logger.js';
import type { RepositoryChange } from './changes.js';

/** Authors looked up (one commit each) and reviewers requested, at most. */
export const MAX_REVIEWERS = 10;

/**
 * The reviewers Mintlify's automations assign: the authors of the source changes, as the
 * project's Git host knows them (the account a commit is linked to by its e-mail). Asked of the
 * project's own host for each context repository; a repository elsewhere, an author without an
 * account, or GitLab (no reviewers on creation) gives none. Never fails a run.
 */
export async function sourceAuthors(project: Project, changes: readonly RepositoryChange[], log: Logger, signal: AbortSignal): Promise<string[]> {
  if (!project.gitHost || project.gitHost.type === 'gitlab') return [];
  const token = project.gitHost.tokenEnv ? process.env[project.gitHost.tokenEnv] : undefined;
  const host = createGitHostClient({ type: project.gitHost.type, apiUrl: project.gitHost.apiUrl, token });
  const seen = new Set<string>();
  const logins = new Set<string>();
  for (const change of changes) {
    for (const commit of change.commits) {
      const email = commit.email.toLowerCase();
      if (seen.has(email) || email === AGENT_AUTHOR.email || seen.size >= MAX_REVIEWERS) continue;
      seen.add(email);
      try {
        const login = await host.commitAuthor(change.url, commit.sha, signal);
        if (login) logins.add(login);
      } catch (err) {
        if (!(err instanceof GitHostError)) throw err;
        log.debug({ repository: change.url, commit: commit.sha, err: err.message }, 'automation: the Git host does not name the author of a commit; no reviewer for it');
      }
    }
  }
  return [...logins].slice(0, MAX_REVIEWERS);
}
