import path from 'node:path';
import { startGitHttpServer } from '../agent/helpers/git-http-server.js';

export interface GitHttpServer {
  /** `http://127.0.0.1:<port>/<name>` of a bare repository under the project root. */
  url(name: string): string;
  close(): Promise<void>;
}

/**
 * A real Git host for tests: `git http-backend` on 127.0.0.1 (test/agent/helpers/git-http-server.ts)
 * serving the bare repositories under `projectRoot`, with anonymous pushes accepted (the editor's
 * project has no Git-host token).
 */
export async function serveGitOverHttp(projectRoot: string): Promise<GitHttpServer> {
  const server = await startGitHttpServer(projectRoot, { anonymousPushAs: 'test' });
  return { url: (name) => server.url(path.join(projectRoot, name)), close: () => server.close() };
}
