import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import type { Express } from 'express';
import { createTestAppliance, OTHER_ORG, OTHER_PROJECT, TEST_ORG, TEST_PROJECT, type TestAppliance, type TestApplianceOptions } from '../helpers/appliance.js';
import { createDocsRepo } from '../publish/helpers.js';

export const editorBase = (projectId = TEST_PROJECT, orgId = TEST_ORG) => `/console/orgs/${orgId}/projects/${projectId}/editor`;
export const apiBase = (projectId = TEST_PROJECT, orgId = TEST_ORG) => `${editorBase(projectId, orgId)}/api`;

/** Someone else's push from their own clone (not force): what the editor must build on. */
export function pushOutside(bare: string, files: Record<string, string>, message: string, branch = 'main'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'editor-outside-'));
  try {
    const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'Other Writer', GIT_AUTHOR_EMAIL: 'other@test', GIT_COMMITTER_NAME: 'Other Writer', GIT_COMMITTER_EMAIL: 'other@test' };
    const run = (args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', env }).trim();
    run(['clone', '--quiet', '--branch', branch, bare, '.']);
    for (const [rel, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), content);
    }
    run(['add', '--all']);
    run(['commit', '--quiet', '-m', message]);
    run(['push', '--quiet', 'origin', `HEAD:${branch}`]);
    return run(['rev-parse', 'HEAD']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export const gitOf = (cwd: string, args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } }).trim();

/**
 * An appliance whose test project is published from a real bare Git repository on disk
 * (createDocsRepo: docs under `docs/`), the editor's source; the other projects keep their directory.
 */
export function gitAppliance(options: TestApplianceOptions = {}) {
  const repo = createDocsRepo();
  const a = createTestAppliance({
    ...options,
    config: {
      renderer: { threads: 1 },
      ...options.config,
      projects: [
        { id: TEST_PROJECT, orgId: TEST_ORG, name: 'Test docs', domain: 'docs.test.internal', repository: repo.bare, branch: 'main', publish: { source: 'git', docsPath: 'docs' } },
        { id: OTHER_PROJECT, orgId: OTHER_ORG, name: 'Other docs', domain: 'docs.other.internal', sourceDir: repo.root },
      ],
    },
  }) as TestAppliance;
  return { a, repo };
}

/**
 * A signed-in console user as the editor page's script is one: cookies kept, the session's CSRF
 * token (read from a console page) sent as X-CSRF-Token with every change.
 */
export async function editorClient(app: Express, key: string) {
  const agent = supertest.agent(app);
  const page = await agent.get('/console/sign-in');
  const pre = /name="_csrf" value="([^"]+)"/.exec(page.text)![1]!;
  const signedIn = await agent.post('/console/sign-in').type('form').send({ _csrf: pre, key }).expect(303);
  const home = await agent.get(signedIn.headers.location as string);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(home.text)?.[1] ?? '';
  if (!csrf) throw new Error('no CSRF token on the console overview');
  return {
    agent,
    csrf,
    get: (url: string) => agent.get(url),
    post: (url: string, body?: unknown) => agent.post(url).set('X-CSRF-Token', csrf).send(body as object),
    put: (url: string, body?: unknown) => agent.put(url).set('X-CSRF-Token', csrf).send(body as object),
    delete: (url: string) => agent.delete(url).set('X-CSRF-Token', csrf),
  };
}

export type EditorClient = Awaited<ReturnType<typeof editorClient>>;
export type { TestAppliance };
