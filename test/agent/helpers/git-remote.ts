import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const git = (args: string[], cwd?: string) =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'Seed', GIT_AUTHOR_EMAIL: 'seed@test', GIT_COMMITTER_NAME: 'Seed', GIT_COMMITTER_EMAIL: 'seed@test' },
  });

/**
 * A bare repository on disk (`<tmp>/acme/docs.git`, so the Git host path is acme/docs), seeded
 * with the fixture docs on `main`: the remote the runner clones and pushes to.
 */
export function createBareRemote() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-remote-'));
  const bare = path.join(root, 'acme', 'docs.git');
  fs.mkdirSync(bare, { recursive: true });
  git(['init', '--quiet', '--bare', '--initial-branch=main', bare]);
  const seed = path.join(root, 'seed');
  fs.cpSync(path.join(import.meta.dirname, '..', '..', 'fixtures', 'agent', 'docs-repo'), seed, { recursive: true });
  git(['init', '--quiet', '--initial-branch=main'], seed);
  git(['add', '--all'], seed);
  git(['commit', '--quiet', '-m', 'Initial docs'], seed);
  git(['push', '--quiet', bare, 'main'], seed);
  return {
    root,
    bare,
    branches: () => git(['for-each-ref', '--format=%(refname:short)', 'refs/heads'], bare).split('\n').filter(Boolean).sort(),
    show: (ref: string, file: string) => git(['show', `${ref}:${file}`], bare),
    log: (ref: string) => git(['log', '--format=%an <%ae>%n%B%n--end--', ref], bare),
    changedFiles: (from: string, to: string) => git(['diff', '--name-only', from, to], bare).split('\n').filter(Boolean).sort(),
    commitCount: (ref: string) => Number(git(['rev-list', '--count', ref], bare).trim()),
    /** Make every push fail (a protected repository). */
    rejectPushes() {
      const hook = path.join(bare, 'hooks', 'pre-receive');
      fs.writeFileSync(hook, '#!/bin/sh\necho "pushes to this repository are not allowed" >&2\nexit 1\n', { mode: 0o755 });
    },
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

export type BareRemote = ReturnType<typeof createBareRemote>;
