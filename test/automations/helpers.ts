import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import type { ConfigInput } from '../../config/schema.js';
import { createAgentAppliance } from '../agent/helpers/agent-appliance.js';
import { startFakeGitHost } from '../agent/helpers/fake-git-host.js';
import { startFakeModel } from '../agent/helpers/fake-model.js';
import { createBareRemote } from '../agent/helpers/git-remote.js';
import { startGitHttpServer } from '../agent/helpers/git-http-server.js';
import { TEST_PROJECT, type TestAppliance } from '../helpers/appliance.js';

const git = (args: string[], cwd?: string, author = 'Ada Coder <ada@code.test>') => {
  const [, name, email] = /^(.*) <(.*)>$/.exec(author)!;
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: email },
  });
};

/** A code repository (the context the docs describe), served by git http-backend on 127.0.0.1. */
export async function createCodeRepo() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'automation-code-'));
  const bare = path.join(root, 'acme', 'api.git');
  fs.mkdirSync(bare, { recursive: true });
  git(['init', '--quiet', '--bare', '--initial-branch=main', bare]);
  const work = path.join(root, 'work');
  git(['init', '--quiet', '--initial-branch=main', work]);
  const server = await startGitHttpServer(root);
  const commit = (file: string, content: string, subject: string, author?: string) => {
    fs.mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
    fs.writeFileSync(path.join(work, file), content);
    git(['add', '--all'], work);
    git(['commit', '--quiet', '-m', subject], work, author);
    git(['push', '--quiet', bare, 'main'], work);
    return git(['rev-parse', 'HEAD'], work).trim();
  };
  commit('src/server.ts', 'export const port = 3000;\n', 'Add the server');
  commit('src/limits.ts', 'export const maxUsers = 10;\n', 'Add user limits');
  return {
    url: server.url(bare),
    commit,
    server,
    async remove() {
      await server.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

export type Automations = NonNullable<NonNullable<ConfigInput['projects']>[number]['automations']>;

/** The rig: the docs remote, the code repository over HTTP, the fake model and Git host, and an appliance with these automations. */
export function automationRig() {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return async function setup(automations: (codeUrl: string) => Automations, script: Parameters<typeof startFakeModel>[0] = [], agent: Record<string, unknown> = {}) {
    const remote = createBareRemote();
    cleanups.push(() => remote.remove());
    const code = await createCodeRepo();
    cleanups.push(() => code.remove());
    const model = await startFakeModel(script);
    cleanups.push(() => model.close());
    const host = await startFakeGitHost();
    cleanups.push(() => host.close());
    const t = createAgentAppliance({ modelUrl: model.baseUrl, repository: remote.bare, gitHostUrl: host.apiUrl, automations: automations(code.url), agent });
    cleanups.push(() => t.close());
    await t.start();
    return { remote, code, model, host, t, key: t.createKey() };
  };
}

export const triggerUrl = (automationId: string, projectId = TEST_PROJECT) => `/v1/workflow/${projectId}/${automationId}/trigger`;

/** The text of the first user message the model was sent in request `i`. */
export const promptOf = (model: Awaited<ReturnType<typeof startFakeModel>>, i: number) => String(model.requests[i]!.body.messages.find((m) => m.role === 'user')!.content);

export function cronJob(t: TestAppliance, name: string) {
  const job = t.features.find((f) => f.name === 'automations')!.cron!.find((c) => c.name === name);
  if (!job) throw new Error(`no cron job ${name}`);
  return job;
}
