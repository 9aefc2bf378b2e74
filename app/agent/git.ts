import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { removeTree } from '../fs-tree.js';

export const AGENT_AUTHOR = { name: 'docs-appliance agent', email: 'agent@docs-appliance.local' };

/** A git command failed; the message carries git's own words, with any secret taken out. */
export class GitError extends Error {
  override name = 'GitError';
}

export interface GitOptions {
  /** Token for pushes/fetches over http(s); sent as an http.extraHeader, never in a URL or log. */
  token?: string | undefined;
  /** Basic-auth user name the Git host expects beside a token. */
  tokenUser?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Who commits (and authors, unless a commit names its author); default: the agent. */
  identity?: { name: string; email: string } | undefined;
}

/** A commit's author as `git commit --author` takes it (no angle brackets or line breaks survive). */
export interface GitAuthor {
  name: string;
  email: string;
}

/**
 * The git CLI through execFile (no shell), never prompting, ignoring the machine's global and
 * system config, with the agent as author and committer.
 */
export function createGit(opts: GitOptions = {}) {
  const secrets = opts.token ? [opts.token, Buffer.from(`${opts.tokenUser ?? 'oauth2'}:${opts.token}`).toString('base64')] : [];
  const scrub = (s: string) => secrets.reduce((acc, sec) => acc.split(sec).join('[REDACTED]'), s);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    LANG: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: (opts.identity ?? AGENT_AUTHOR).name,
    GIT_AUTHOR_EMAIL: (opts.identity ?? AGENT_AUTHOR).email,
    GIT_COMMITTER_NAME: (opts.identity ?? AGENT_AUTHOR).name,
    GIT_COMMITTER_EMAIL: (opts.identity ?? AGENT_AUTHOR).email,
    ...passThrough(),
  };
  const authConfig = (remote: string): string[] =>
    opts.token && /^https?:\/\//i.test(remote)
      ? ['-c', `http.extraHeader=Authorization: Basic ${Buffer.from(`${opts.tokenUser ?? 'oauth2'}:${opts.token}`).toString('base64')}`]
      : [];

  function run(args: string[], cwd: string | undefined, remoteForAuth?: string): Promise<string> {
    const full = ['-c', 'credential.helper=', '-c', 'core.hooksPath=/dev/null', ...(remoteForAuth ? authConfig(remoteForAuth) : []), ...args];
    return new Promise((resolve, reject) => {
      execFile('git', full, { cwd, env, maxBuffer: 16 * 1024 * 1024, timeout: 10 * 60_000, ...(opts.signal ? { signal: opts.signal } : {}) }, (err, stdout, stderr) => {
        if (err) {
          const detail = scrub(String(stderr || err.message).trim()).split('\n').slice(-6).join(' | ');
          return reject(new GitError(`git ${args[0]} failed: ${detail}`));
        }
        resolve(stdout);
      });
    });
  }

  return {
    run,
    scrub,
    /** A fresh clone into `dir` (anything there before is removed). */
    async clone(repository: string, dir: string): Promise<void> {
      removeTree(dir);
      fs.mkdirSync(path.dirname(dir), { recursive: true });
      await run(['clone', '--no-tags', '--quiet', '--', repository, dir], undefined, repository);
    },
    /** The remote's default branch as the clone saw it. */
    async defaultBranch(dir: string): Promise<string> {
      const out = await run(['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD'], dir).catch(() => '');
      if (out.trim()) return out.trim().replace(/^origin\//, '');
      return (await run(['rev-parse', '--abbrev-ref', 'HEAD'], dir)).trim();
    },
    async remoteBranchExists(dir: string, branch: string): Promise<boolean> {
      const out = await run(['branch', '--remotes', '--list', `origin/${branch}`], dir);
      return out.trim().length > 0;
    },
    async checkoutNew(dir: string, branch: string, startPoint: string): Promise<void> {
      await run(['checkout', '--quiet', '-B', branch, startPoint], dir);
    },
    /** Stage everything; the changed paths (empty = nothing to commit). */
    async stageAll(dir: string): Promise<string[]> {
      await run(['add', '--all'], dir);
      const out = await run(['diff', '--cached', '--name-only', '--no-renames', '-z'], dir);
      return out.split('\0').filter(Boolean);
    },
    /** Files the branch changes against `base` (from their merge base, as a pull request shows them). */
    async changedSince(dir: string, base: string): Promise<string[]> {
      const out = await run(['diff', '--name-only', '--no-renames', '-z', `${base}...HEAD`], dir);
      return out.split('\0').filter(Boolean);
    },
    /** Files the index changes against `base`'s merge base with HEAD (this turn's staged work included). */
    async stagedChangedSince(dir: string, base: string): Promise<string[]> {
      const mergeBase = (await run(['merge-base', base, 'HEAD'], dir)).trim();
      const out = await run(['diff', '--cached', '--name-only', '--no-renames', '-z', mergeBase], dir);
      return out.split('\0').filter(Boolean);
    },
    async commit(dir: string, message: string, author?: GitAuthor): Promise<string> {
      const clean = (v: string) => v.replace(/[<>\r\n\0]/g, '').trim();
      const by = author ? [`--author=${clean(author.name) || 'unknown'} <${clean(author.email)}>`] : [];
      await run(['commit', '--quiet', '--no-verify', '--no-gpg-sign', ...by, '-m', message], dir);
      return (await run(['rev-parse', 'HEAD'], dir)).trim();
    },
    async push(dir: string, repository: string, branch: string): Promise<void> {
      await run(['push', '--quiet', '--no-verify', 'origin', `HEAD:refs/heads/${branch}`], dir, repository);
    },
  };
}

export type Git = ReturnType<typeof createGit>;

/**
 * What git may still take from the appliance's environment: the internal CA and proxy settings
 * of the network, and SSH access for ssh:// remotes. Everything else (global config, askpass,
 * credential helpers) is cut off so a run never prompts or picks up a stranger's settings.
 */
const PASS_THROUGH = ['GIT_SSL_CAINFO', 'GIT_SSL_CAPATH', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'GIT_SSH_COMMAND', 'SSH_AUTH_SOCK', 'http_proxy', 'https_proxy', 'no_proxy', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY'];
function passThrough(): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const name of PASS_THROUGH) if (process.env[name]) out[name] = process.env[name];
  return out;
}
