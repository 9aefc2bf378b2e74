import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown> | null;
}

/**
 * A Git host API on loopback (Gitea, GitLab or GitHub shapes): records every request and
 * answers pull/merge request creation with a web URL, or with a scripted failure.
 */
export async function startFakeGitHost(options: { failWith?: { status: number; body: string } } = {}) {
  const requests: RecordedRequest[] = [];
  let created = 0;
  // Pull requests opened through the Gitea/GitHub shape, for the open-pull-request list.
  const pulls: Array<{ number: number; head: string; html_url: string; state: 'open' | 'closed' }> = [];
  // Commit → the account the host links it to (Gitea's GET /repos/{o}/{r}/git/commits/{sha}).
  const commitLogins = new Map<string, string>();
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c: Buffer) => (data += c.toString()));
    req.on('end', () => {
      const body = data ? (JSON.parse(data) as Record<string, unknown>) : null;
      requests.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      if (options.failWith) {
        res.writeHead(options.failWith.status, { 'content-type': 'application/json' }).end(options.failWith.body);
        return;
      }
      const url = req.url!;
      if (req.method === 'POST' && /\/merge_requests$/.test(url)) {
        created++;
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ iid: created, web_url: `http://git.test.internal/mr/${created}` }));
        return;
      }
      if (req.method === 'POST' && /\/pulls$/.test(url)) {
        created++;
        pulls.push({ number: created, head: String(body?.head ?? ''), html_url: `http://git.test.internal/pulls/${created}`, state: 'open' });
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ number: created, html_url: `http://git.test.internal/pulls/${created}` }));
        return;
      }
      const commit = /\/repos\/[^/]+\/[^/]+\/(?:git\/)?commits\/([0-9a-f]+)$/.exec(url);
      if (req.method === 'GET' && commit) {
        const login = commitLogins.get(commit[1]!);
        if (!login) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}');
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ sha: commit[1], author: { login } }));
        return;
      }
      if (req.method === 'POST' && /\/pulls\/\d+\/requested_reviewers$/.test(url)) {
        res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      if (req.method === 'GET' && /\/pulls\?state=open/.test(url)) {
        const open = pulls.filter((p) => p.state === 'open').map((p) => ({ number: p.number, html_url: p.html_url, state: 'open', head: { ref: p.head } }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(open));
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    apiUrl: `http://127.0.0.1:${port}/api/v1`,
    requests,
    pullRequests: () => requests.filter((r) => r.method === 'POST' && /\/(pulls|merge_requests)$/.test(r.url)),
    /** Review requests made, as recorded. */
    reviewRequests: () => requests.filter((r) => r.method === 'POST' && /\/requested_reviewers$/.test(r.url)),
    commitLogins,
    /** Merge or close a pull request (it leaves the open list). */
    closePullRequest(n: number) {
      const pr = pulls.find((p) => p.number === n);
      if (pr) pr.state = 'closed';
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
