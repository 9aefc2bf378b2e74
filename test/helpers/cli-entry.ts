import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../app/paths.js';

const SOURCE_DIRS = ['app', 'renderer', 'config', 'data'];

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

let chosen: string[] | undefined;

/**
 * How a test starts the CLI as a process: the compiled `dist/app/cli.js` when it is newer than
 * every source file (CI: `npm ci` builds it), else the TypeScript through tsx, so a test never runs
 * stale code. The compiled one starts about 0.6 s sooner, and the suite starts dozens.
 */
export function cliCommand(): string[] {
  if (chosen) return chosen;
  const root = packageRoot();
  const compiled = path.join(root, 'dist/app/cli.js');
  let fresh = false;
  try {
    const built = fs.statSync(compiled).mtimeMs;
    fresh = SOURCE_DIRS.every((d) => !fs.existsSync(path.join(root, d)) || newestSource(path.join(root, d)) < built);
  } catch {
    fresh = false;
  }
  chosen = fresh ? [compiled] : ['--import', 'tsx', path.join(root, 'app/cli.ts')];
  return chosen;
}
