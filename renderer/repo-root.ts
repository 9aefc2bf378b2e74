import fs from 'node:fs';

const realRoots = new Map<string, string>();

/**
 * A repository's real root (links followed), once per root: every read and every recorded probe
 * of an export checks paths against the same one (renderer/repo-files.ts, renderer/memo/read-log.ts).
 * Throws when the root does not exist.
 */
export function realRoot(repoRoot: string): string {
  let real = realRoots.get(repoRoot);
  if (real === undefined) {
    real = fs.realpathSync(repoRoot);
    if (realRoots.size >= 64) realRoots.clear();
    realRoots.set(repoRoot, real);
  }
  return real;
}
