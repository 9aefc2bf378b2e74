import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gitCommit } from '../../renderer/index.js';

/**
 * The default label of an export: the source's git commit when the docs folder is a git
 * repository, else the job id. `git rev-parse` understands every repository layout (worktrees,
 * packed refs, detached heads); when git is not installed or refuses the folder (another owner:
 * "dubious ownership"), the renderer's reader of .git files answers instead.
 */
export async function defaultVersion(sourceDir: string, jobId: string): Promise<string> {
  if (!fs.existsSync(path.join(sourceDir, '.git'))) return jobId;
  const viaGit = await new Promise<string | undefined>((resolve) => {
    execFile('git', ['-C', sourceDir, 'rev-parse', 'HEAD'], { timeout: 5000, windowsHide: true }, (err, stdout) => {
      const out = String(stdout).trim();
      resolve(!err && /^[0-9a-f]{40,64}$/.test(out) ? out : undefined);
    });
  });
  return viaGit ?? gitCommit(sourceDir) ?? jobId;
}
