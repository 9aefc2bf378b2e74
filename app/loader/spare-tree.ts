import fs from 'node:fs';
import path from 'node:path';
import { tryRemoveTree } from '../fs-tree.js';
import { sitesRoot, tempPath } from './sites-dir.js';

/**
 * The directories of the next version of a site, made while nothing waits for them.
 *
 * A docs site's bundle is mostly `<slug>/index.html`: a directory per page. Making a directory is
 * the slowest step of extracting a version when nearly every file is linked from the one before
 * (load-bundle.ts, `reuseFrom`): measured on the 2-core machine of these figures at 0.6–0.8 ms a
 * directory, 0.65 s for a 1,000-page site, against 25 µs a linked file. So after a publish the
 * served version's directory tree (directories only, empty) is made under sites/ in the
 * background; the next extraction of that slot starts in it instead of an empty directory and
 * only makes the directories a new page needs. A directory a removed page leaves empty is served
 * as nothing (no file is there), and is gone with the version.
 *
 * A spare is a temp entry of sites/ (`.spare-…`): one left by a crash is removed at the next start.
 */
const READY = '.spare-ready';
const CONCURRENT_MKDIRS = 8;

/** Make the spare tree for `servedDir` (a version directory of the slot at `stateDir`), replacing an older one. */
export async function prepareSpareTree(stateDir: string, servedDir: string, signal?: AbortSignal): Promise<void> {
  const dirs: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    const entries = await fs.promises.readdir(path.join(servedDir, rel), { withFileTypes: true });
    for (const e of entries) {
      if (!e.isDirectory()) continue;
      const child = rel ? `${rel}/${e.name}` : e.name;
      dirs.push(child);
      await walk(child);
    }
  };
  await walk('');
  const work = tempPath(stateDir, 'spare');
  try {
    await fs.promises.mkdir(work, { mode: 0o755 });
    // Parents before children: `dirs` is in walk order, so each level waits for the one above.
    const byDepth = new Map<number, string[]>();
    for (const d of dirs) {
      const depth = d.split('/').length;
      const level = byDepth.get(depth);
      if (level) level.push(d);
      else byDepth.set(depth, [d]);
    }
    for (const depth of [...byDepth.keys()].sort((a, b) => a - b)) {
      const level = byDepth.get(depth)!;
      for (let i = 0; i < level.length; i += CONCURRENT_MKDIRS) {
        signal?.throwIfAborted();
        await Promise.all(level.slice(i, i + CONCURRENT_MKDIRS).map((d) => fs.promises.mkdir(path.join(work, d), { mode: 0o755 })));
      }
    }
    const ready = path.join(sitesRoot(stateDir), READY);
    tryRemoveTree(ready);
    await fs.promises.rename(work, ready);
  } catch (err) {
    tryRemoveTree(work);
    throw err;
  }
}

/**
 * The slot's spare tree, moved to a fresh temp name for one extraction to start in, or undefined.
 * It holds directories only: anything else in it (it was tampered with) means no spare.
 */
export function takeSpareTree(stateDir: string): string | undefined {
  const ready = path.join(sitesRoot(stateDir), READY);
  if (!fs.existsSync(ready)) return undefined;
  const work = tempPath(stateDir, 'extract');
  try {
    fs.renameSync(ready, work);
  } catch {
    return undefined;
  }
  if (!onlyDirectories(work)) {
    tryRemoveTree(work);
    return undefined;
  }
  return work;
}

function onlyDirectories(dir: string): boolean {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!e.isDirectory() || !onlyDirectories(path.join(dir, e.name))) return false;
  }
  return true;
}
