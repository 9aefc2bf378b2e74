import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createGitHostClient, GitHostError, repositoryPath } from '../../app/agent/git-host.js';
import { startFakeGitHost } from './helpers/fake-git-host.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const pr = { repository: 'https://git.corp.internal/team/docs.git', head: 'docs-agent/abc', base: 'main', title: 'docs-agent: x', body: 'body' };

describe('repositoryPath', () => {
  it.each([
    ['https://git.corp.internal/team/docs.git', 'gitea', 'team/docs'],
    ['https://git.corp.internal/team/docs', 'github', 'team/docs'],
    ['git@git.corp.internal:team/docs.git', 'gitea', 'team/docs'],
    ['ssh://git@git.corp.internal:2222/team/docs.git', 'github', 'team/docs'],
    ['https://gitlab.corp.internal/group/sub/docs.git', 'gitlab', 'group/sub/docs'],
    ['git@gitlab.corp.internal:group/sub/docs.git', 'gitlab', 'group/sub/docs'],
    ['https://ghe.corp.internal/org/docs.git', 'gitea', 'org/docs'],
    ['/srv/mirrors/acme/docs.git', 'gitlab', 'acme/docs'],
    ['file:///srv/mirrors/acme/docs.git', 'gitea', 'acme/docs'],
  ] as const)('%s (%s) → %s', (url, type, expected) => {
    expect(repositoryPath(url, type)).toBe(expected);
  });

  it('refuses a URL without owner and name', () => {
    expect(() => repositoryPath('https://git.corp.internal/docs.git', 'gitea')).toThrow(GitHostError);
  });
});

describe('Git host API shapes', () => {
  it('GitLab: POST /projects/{url-encoded path}/merge_requests with PRIVATE-TOKEN, answers web_url', async () => {
    const host = await startFakeGitHost();
    cleanups.push(() => host.close());
    const client = createGitHostClient({ type: 'gitlab', apiUrl: host.apiUrl.replace('/api/v1', '/api/v4'), token: 'glpat-1' });
    const url = await client.openPullRequest({ ...pr, repository: 'https://gitlab.corp.internal/group/sub/docs.git' });
    expect(url).toBe('http://git.test.internal/mr/1');
    const [req] = host.pullRequests();
    expect(req!.url).toBe('/api/v4/projects/group%2Fsub%2Fdocs/merge_requests');
    expect(req!.headers['private-token']).toBe('glpat-1');
    expect(req!.body).toMatchObject({ source_branch: 'docs-agent/abc', target_branch: 'main', title: 'docs-agent: x', description: 'body' });
  });

  it('GitHub Enterprise: POST /repos/{owner}/{repo}/pulls with a Bearer token, answers html_url', async () => {
    const host = await startFakeGitHost();
    cleanups.push(() => host.close());
    const client = createGitHostClient({ type: 'github', apiUrl: host.apiUrl, token: 'ghp-1' });
    expect(await client.openPullRequest(pr)).toBe('http://git.test.internal/pulls/1');
    const [req] = host.pullRequests();
    expect(req!.url).toBe('/api/v1/repos/team/docs/pulls');
    expect(req!.headers.authorization).toBe('Bearer ghp-1');
    expect(req!.headers.accept).toBe('application/vnd.github+json');
    expect(req!.body).toEqual({ title: 'docs-agent: x', body: 'body', head: 'docs-agent/abc', base: 'main' });
  });

  it('uses the pull request already open for the branch when the host says it exists', async () => {
    const requests: string[] = [];
    const server = http.createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      req.resume();
      req.on('end', () => {
        if (req.method === 'POST') res.writeHead(409, { 'content-type': 'application/json' }).end('{"message":"pull request already exists"}');
        else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ head: { ref: 'other' }, html_url: 'http://x/1' }, { head: { ref: 'docs-agent/abc' }, html_url: 'http://git.corp.internal/team/docs/pulls/4' }]));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const client = createGitHostClient({ type: 'gitea', apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1` });
    expect(await client.openPullRequest(pr)).toBe('http://git.corp.internal/team/docs/pulls/4');
    expect(requests).toEqual(['POST /api/v1/repos/team/docs/pulls', 'GET /api/v1/repos/team/docs/pulls?state=open']);
  });

  it('reports an unreachable host and a refusal with the host name and its answer', async () => {
    await expect(createGitHostClient({ type: 'gitea', apiUrl: 'http://127.0.0.1:9/api/v1' }).openPullRequest(pr)).rejects.toThrow('could not reach the Gitea API');
    const host = await startFakeGitHost({ failWith: { status: 422, body: '{"message":"base branch does not exist"}' } });
    cleanups.push(() => host.close());
    await expect(createGitHostClient({ type: 'github', apiUrl: host.apiUrl }).openPullRequest(pr)).rejects.toThrow('GitHub answered 422 to the pull request: {"message":"base branch does not exist"}');
  });

  it('refuses an endless answer instead of reading it all (8 MiB at most)', async () => {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(201, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        let sent = 0;
        const pump = () => {
          while (sent < 64 && !res.destroyed) {
            sent++;
            if (!res.write(chunk)) return res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => undefined);
        pump();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }));
    const client = createGitHostClient({ type: 'gitea', apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1` });
    await expect(client.openPullRequest(pr)).rejects.toThrow('the Gitea API answered more than 8388608 bytes');
  });
});
