import type { GitHostType } from './run-protocol.js';

/** Opening the pull/merge request failed; the reason names the host and its answer. */
export class GitHostError extends Error {
  override name = 'GitHostError';
}

export interface PullRequestInput {
  repository: string;
  head: string;
  base: string;
  title: string;
  body: string;
  /** Open it as a draft: GitHub's `draft` field, GitLab's `Draft:` and Gitea's `WIP:` title prefixes. */
  draft?: boolean;
}

export interface GitHostClient {
  /** Open the pull/merge request, or find the open one for this branch; its web URL. */
  openPullRequest(input: PullRequestInput, signal?: AbortSignal): Promise<string>;
  /** The web URL of the open pull/merge request whose source branch is `head`, if there is one. */
  findOpenPullRequest(repository: string, head: string, signal?: AbortSignal): Promise<string | undefined>;
  /** The host's user name of a commit's author (the host links a commit to an account by its e-mail), if it knows one. GitLab: never. */
  commitAuthor(repository: string, sha: string, signal?: AbortSignal): Promise<string | undefined>;
  /** Ask users to review a pull request (its web URL); false where the host has no such call (GitLab merge requests on creation). */
  requestReviewers(repository: string, prLink: string, reviewers: readonly string[], signal?: AbortSignal): Promise<boolean>;
}

/**
 * The repository's path on the host, from its clone URL: `https://git.corp/team/docs.git`,
 * `git@git.corp:team/docs.git` and `ssh://git@git.corp/team/docs` all give `team/docs`. GitLab
 * keeps nested groups (`group/sub/docs`); Gitea and GitHub take owner and name (the last two).
 * A local path or file:// URL (a mirror on disk) is read the same way.
 */
export function repositoryPath(repository: string, type: GitHostType): string {
  let p: string;
  const scp = /^[\w.-]+@[\w.-]+:(?!\/\/)(.+)$/.exec(repository);
  if (scp) p = scp[1]!;
  else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(repository)) p = new URL(repository).pathname;
  else p = repository;
  const parts = p.split(/[\\/]+/).filter(Boolean).map((s) => decodeURIComponent(s));
  if (parts.length) parts[parts.length - 1] = parts[parts.length - 1]!.replace(/\.git$/, '');
  if (parts.length < 2) throw new GitHostError(`cannot tell owner and repository from "${repository}"`);
  const local = !scp && !/^(https?|ssh|git):\/\//i.test(repository);
  return type === 'gitlab' && !local ? parts.join('/') : parts.slice(-2).join('/');
}

/** Largest Git host answer read (a list of open pull requests is the largest legitimate one). */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** The answer's body, refused past `max` bytes: a broken or hostile host cannot fill the runner's memory. */
async function readUpTo(res: Response, max: number, label: string): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read().catch((err: unknown) => {
      throw new GitHostError(`the ${label} API answer broke off: ${(err as Error).message}`);
    });
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      throw new GitHostError(`the ${label} API answered more than ${max} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A client for the internal Git host's REST API (Gitea, GitLab, GitHub Enterprise shapes). */
export function createGitHostClient(host: { type: GitHostType; apiUrl: string; token?: string | undefined }): GitHostClient {
  const api = host.apiUrl.replace(/\/+$/, '');
  const authHeaders: Record<string, string> = !host.token
    ? {}
    : host.type === 'gitlab'
      ? { 'PRIVATE-TOKEN': host.token }
      : host.type === 'gitea'
        ? { authorization: `token ${host.token}` }
        : { authorization: `Bearer ${host.token}` };
  const label = { gitea: 'Gitea', gitlab: 'GitLab', github: 'GitHub' }[host.type];

  async function call(method: string, url: string, body: unknown, signal?: AbortSignal): Promise<{ status: number; json: unknown; text: string }> {
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: {
          accept: host.type === 'github' ? 'application/vnd.github+json' : 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...authHeaders,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: signal ?? AbortSignal.timeout(60_000),
      });
    } catch (err) {
      throw new GitHostError(`could not reach the ${label} API at ${api}: ${(err as Error).message}`);
    }
    const text = await readUpTo(res, MAX_ANSWER_BYTES, label);
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON: reported below if the status says failure, or if a URL was expected
    }
    return { status: res.status, json, text };
  }

  const urlField = (json: unknown, field: 'html_url' | 'web_url'): string | undefined => {
    const v = json && typeof json === 'object' ? (json as Record<string, unknown>)[field] : undefined;
    return typeof v === 'string' && /^https?:\/\//.test(v) ? v : undefined;
  };
  const fail = (what: string, r: { status: number; text: string }) =>
    new GitHostError(`${label} answered ${r.status} to ${what}: ${r.text.replace(/\s+/g, ' ').slice(0, 200) || '(empty body)'}`);

  async function findOpen(repository: string, head: string, signal?: AbortSignal): Promise<string | undefined> {
    const repoPath = repositoryPath(repository, host.type);
    if (host.type === 'gitlab') {
      const q = await call('GET', `${api}/projects/${encodeURIComponent(repoPath)}/merge_requests?state=opened&source_branch=${encodeURIComponent(head)}`, undefined, signal);
      if (q.status >= 300) throw fail('the list of open merge requests', q);
      return Array.isArray(q.json) ? urlField(q.json[0], 'web_url') : undefined;
    }
    const [owner, name] = repoPath.split('/') as [string, string];
    const query = host.type === 'github' ? `?state=open&head=${encodeURIComponent(`${owner}:${head}`)}` : '?state=open';
    const q = await call('GET', `${api}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/pulls${query}`, undefined, signal);
    if (q.status >= 300) throw fail('the list of open pull requests', q);
    const list = Array.isArray(q.json) ? (q.json as Array<Record<string, unknown>>) : [];
    const mine = list.find((pr) => (pr.head as Record<string, unknown> | undefined)?.ref === head);
    return mine ? urlField(mine, 'html_url') : undefined;
  }

  return {
    async openPullRequest(input, signal) {
      const repoPath = repositoryPath(input.repository, host.type);
      // GitLab and Gitea have no draft field on creation: a title prefix is how each marks one.
      const title = !input.draft || host.type === 'github' ? input.title : `${host.type === 'gitlab' ? 'Draft:' : 'WIP:'} ${input.title}`;
      if (host.type === 'gitlab') {
        const base = `${api}/projects/${encodeURIComponent(repoPath)}/merge_requests`;
        const r = await call('POST', base, { source_branch: input.head, target_branch: input.base, title, description: input.body, remove_source_branch: false }, signal);
        const created = r.status < 300 ? urlField(r.json, 'web_url') : undefined;
        if (created) return created;
        if (r.status === 409) {
          // One already open for this branch: use it (a push has updated it).
          const found = await findOpen(input.repository, input.head, signal).catch(() => undefined);
          if (found) return found;
        }
        throw fail('the merge request', r);
      }
      const [owner, name] = repoPath.split('/') as [string, string];
      const base = `${api}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/pulls`;
      const r = await call('POST', base, { title, body: input.body, head: input.head, base: input.base, ...(host.type === 'github' && input.draft ? { draft: true } : {}) }, signal);
      const created = r.status < 300 ? urlField(r.json, 'html_url') : undefined;
      if (created) return created;
      if (r.status === 409 || r.status === 422) {
        const found = await findOpen(input.repository, input.head, signal).catch(() => undefined);
        if (found) return found;
      }
      throw fail('the pull request', r);
    },
    findOpenPullRequest: (repository, head, signal) => findOpen(repository, head, signal),
    async commitAuthor(repository, sha, signal) {
      if (host.type === 'gitlab' || !/^[0-9a-f]{7,64}$/i.test(sha)) return undefined;
      const [owner, name] = repositoryPath(repository, host.type).split('/') as [string, string];
      const path = host.type === 'gitea' ? 'git/commits' : 'commits';
      const r = await call('GET', `${api}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/${path}/${sha}`, undefined, signal);
      if (r.status === 404 || r.status === 422) return undefined;
      if (r.status >= 300) throw fail('the commit', r);
      const login = r.json && typeof r.json === 'object' ? ((r.json as Record<string, unknown>).author as Record<string, unknown> | null | undefined)?.login : undefined;
      return typeof login === 'string' && /^[A-Za-z0-9._-]{1,100}$/.test(login) ? login : undefined;
    },
    async requestReviewers(repository, prLink, reviewers, signal) {
      if (host.type === 'gitlab' || reviewers.length === 0) return false;
      const number = /\/pulls?\/(\d+)(?:[/?#]|$)/.exec(prLink)?.[1];
      if (!number) throw new GitHostError(`cannot tell the pull request number from ${prLink}`);
      const [owner, name] = repositoryPath(repository, host.type).split('/') as [string, string];
      const r = await call('POST', `${api}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/pulls/${number}/requested_reviewers`, { reviewers }, signal);
      if (r.status >= 300) throw fail('the review request', r);
      return true;
    },
  };
}
