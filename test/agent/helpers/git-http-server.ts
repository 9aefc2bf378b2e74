import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/**
 * Git's smart HTTP protocol on loopback: `git http-backend` (CGI) serving the folder that holds
 * the bare repositories, recording the Authorization header of every request.
 */
export async function startGitHttpServer(projectRoot: string, opts: { anonymousPushAs?: string } = {}) {
  const authorizations: Array<string | undefined> = [];
  const urls: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    authorizations.push(req.headers.authorization);
    urls.push(req.url!);
    const cgi = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        // http-backend allows pushes only from an authenticated user.
        REMOTE_USER: req.headers.authorization ? 'agent' : (opts.anonymousPushAs ?? ''),
        REQUEST_METHOD: req.method!,
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.replace(/^\?/, ''),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...(req.headers['content-length'] ? { CONTENT_LENGTH: req.headers['content-length'] } : {}),
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: String(req.headers['content-encoding']) } : {}),
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
      },
    });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let headersDone = false;
    cgi.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const sep = head.indexOf('\r\n\r\n');
      if (sep < 0) return;
      headersDone = true;
      let status = 200;
      for (const line of head.subarray(0, sep).toString().split('\r\n')) {
        const i = line.indexOf(':');
        const name = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
        else res.setHeader(name, value);
      }
      res.writeHead(status);
      res.write(head.subarray(sep + 4));
    });
    cgi.stdout.on('end', () => res.end());
    cgi.on('error', () => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (bare: string) => `http://127.0.0.1:${port}/${path.relative(projectRoot, bare)}`,
    authorizations,
    urls,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
