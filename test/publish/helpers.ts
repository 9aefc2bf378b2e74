import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import { writeTinyDocs, type TestAppliance } from '../helpers/appliance.js';
import { expectSpec } from '../helpers/openapi.js';
import type { PublishKind, PublishStatus, PublishTrigger } from '../../data/stores/publishes.js';
import type { HostedSource } from '../../app/publish/status-view.js';

const git = (args: string[], cwd?: string) =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'Writer', GIT_AUTHOR_EMAIL: 'writer@test', GIT_COMMITTER_NAME: 'Writer', GIT_COMMITTER_EMAIL: 'writer@test' },
  });

/**
 * A docs repository as a team has it: a bare repository (`<root>/acme/<name>.git`, served by
 * `git http-backend`) and a working clone a writer commits and pushes from. The docs live under
 * `docs/` in the repository, beside files that are not docs.
 */
export function createDocsRepo(name = 'docs') {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'publish-repo-'));
  const bare = path.join(root, 'acme', `${name}.git`);
  fs.mkdirSync(bare, { recursive: true });
  git(['init', '--quiet', '--bare', '--initial-branch=main', bare]);
  const work = path.join(root, 'work');
  git(['init', '--quiet', '--initial-branch=main', work]);
  writeTinyDocs(path.join(work, 'docs'));
  fs.writeFileSync(path.join(work, 'README.md'), 'Not part of the docs.\n');
  git(['add', '--all'], work);
  git(['commit', '--quiet', '-m', 'Initial docs'], work);
  git(['push', '--quiet', bare, 'main'], work);
  return {
    root,
    bare,
    /** Write files (relative to the repository) on `branch`, commit and push; the new head. */
    commit(files: Record<string, string>, message: string, branch = 'main'): string {
      git(['checkout', '--quiet', '-B', branch, 'main'], work);
      for (const [rel, content] of Object.entries(files)) {
        fs.mkdirSync(path.dirname(path.join(work, rel)), { recursive: true });
        fs.writeFileSync(path.join(work, rel), content);
      }
      git(['add', '--all'], work);
      git(['commit', '--quiet', '-m', message], work);
      git(['push', '--quiet', '--force', bare, `${branch}:${branch}`], work);
      const head = git(['rev-parse', 'HEAD'], work).trim();
      git(['checkout', '--quiet', 'main'], work);
      return head;
    },
    /** Replace `rel` with a symbolic link to `target` on main, commit and push. */
    link(rel: string, target: string, message: string): string {
      fs.rmSync(path.join(work, rel), { recursive: true, force: true });
      fs.symlinkSync(target, path.join(work, rel));
      git(['add', '--all'], work);
      git(['commit', '--quiet', '-m', message], work);
      git(['push', '--quiet', bare, 'main:main'], work);
      return git(['rev-parse', 'HEAD'], work).trim();
    },
    head: (branch = 'main') => git(['rev-parse', branch], bare).trim(),
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/** A push payload as the hosts send it (the fields the appliance reads, and a few it does not). */
export const pushPayload = (branch: string, after: string) => JSON.stringify({ ref: `refs/heads/${branch}`, before: '0'.repeat(40), after, commits: [{ id: after, message: 'x' }], repository: { full_name: 'acme/docs' } });

const hmac = (secret: string, body: string) => crypto.createHmac('sha256', secret).update(body).digest('hex');

/** The headers each host sends with a push, signed with `secret`. */
export function hostHeaders(host: 'gitea' | 'github' | 'gitlab', secret: string, body: string, delivery: string = crypto.randomUUID()): Record<string, string> {
  if (host === 'gitea') return { 'X-Gitea-Event': 'push', 'X-Gitea-Delivery': delivery, 'X-Gitea-Signature': hmac(secret, body), 'X-GitHub-Event': 'push', 'X-Hub-Signature-256': `sha256=${hmac(secret, body)}` };
  if (host === 'github') return { 'X-GitHub-Event': 'push', 'X-GitHub-Delivery': delivery, 'X-Hub-Signature-256': `sha256=${hmac(secret, body)}` };
  return { 'X-Gitlab-Event': 'Push Hook', 'X-Gitlab-Event-UUID': delivery, 'X-Gitlab-Token': secret };
}

/** POST a webhook delivery; the answer is checked against the served OpenAPI document. */
export function sendHook(t: TestAppliance, projectId: string, headers: Record<string, string>, body: string) {
  let req = supertest(t.admin).post(`/hooks/git/${projectId}`).set('Content-Type', 'application/json');
  for (const [k, v] of Object.entries(headers)) req = req.set(k, v);
  return req.send(body).expect(expectSpec);
}

export interface UpdateStatusBody {
  _id: string;
  status: PublishStatus;
  summary: string;
  logs: string[];
  endedAt?: string;
  version: string | null;
  commit?: { sha: string; ref?: string; message?: string; filesChanged?: { added: string[]; modified: string[]; removed: string[] } };
  source: HostedSource;
  trigger: PublishTrigger;
  kind: PublishKind;
  durationMs: number | null;
  stages?: { source?: number; export?: number; verify?: number; activate?: number; exportStages?: Record<string, number>; render?: { mode: 'incremental' | 'full'; pagesRendered: number; pagesReused: number } };
  previewUrl?: string;
}

/** Poll the hosted status operation until the work has ended. */
export async function untilEnded(t: TestAppliance, key: string, statusId: string, timeoutMs = 60_000): Promise<UpdateStatusBody> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await t.api(key).get(`/v1/project/update-status/${statusId}`).expect(200);
    const body = r.body as UpdateStatusBody;
    if (body.status === 'success' || body.status === 'failure') return body;
    if (Date.now() > until) throw new Error(`status ${statusId} still ${body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** GET a page of the site listener as a reader at `host`. */
export const page = (t: TestAppliance, host: string, urlPath = '/') => supertest(t.site).get(urlPath).set('Host', host);
