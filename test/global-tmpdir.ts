import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * vitest globalSetup: every temporary file or directory of a test run lands in one directory of
 * its own, removed when the run ends. Tests, the appliance they build, its worker threads and the
 * processes they spawn (CLI, serve, tar, git, Chromium) all take their temp dirs from TMPDIR
 * (`os.tmpdir()`), and the forks are started after this runs, with this process's environment.
 * So a helper that forgets to clean up (or a test that fails before its cleanup) leaves nothing
 * in the system temp dir after the run.
 */
export default function setup(): () => void {
  const systemTmp = os.tmpdir();
  const previous = process.env.TMPDIR;
  const runDir = fs.mkdtempSync(path.join(systemTmp, 'docs-appliance-vitest-'));
  // tsx keeps its transpile cache in `<tmpdir>/tsx-<uid>`, meant to outlive a run: the worker
  // threads started from source keep using the one in the system temp dir (a cold cache costs
  // every thread a transpile of the renderer). rmSync removes the link, not the cache.
  const tsxCache = `tsx-${process.geteuid?.() ?? os.userInfo().username}`;
  fs.mkdirSync(path.join(systemTmp, tsxCache), { recursive: true, mode: 0o700 });
  fs.symlinkSync(path.join(systemTmp, tsxCache), path.join(runDir, tsxCache));
  process.env.TMPDIR = runDir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    fs.rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
  };
}
