import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Remove a directory tree of any depth; a missing `dir` is fine. Never follows symbolic links
 * (a link is unlinked, not entered).
 *
 * Node's `fs.rmSync(dir, { recursive: true })` recurses in JavaScript once per level, so a tree a
 * few thousand levels deep (a hostile bundle, an agent's workspace) overflows the stack; and any
 * walk by full path fails with ENAMETOOLONG once the path passes PATH_MAX. Here every
 * subdirectory met below the top level is first renamed up into `dir` itself, so no path this
 * function touches is more than two names below `dir`, whatever the depth of the tree, and the
 * work list is an array, not the call stack. An interrupted run leaves everything inside `dir`,
 * so running it again finishes the job.
 */
export function removeTree(dir: string): void {
  let top: fs.Stats | undefined;
  try {
    top = fs.lstatSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  if (!top.isDirectory()) {
    fs.rmSync(dir, { force: true });
    return;
  }
  const tag = crypto.randomBytes(4).toString('hex');
  let hoisted = 0;
  // Directories directly inside `dir` whose content is still to be removed.
  const work: string[] = [dir];
  while (work.length > 0) {
    const current = work.pop()!;
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (!entry.isDirectory()) {
        fs.rmSync(full, { force: true });
      } else if (current === dir) {
        work.push(full);
      } else {
        const up = path.join(dir, `.rm-${tag}-${hoisted++}`);
        fs.renameSync(full, up);
        work.push(up);
      }
    }
    // Emptied now: files unlinked, subdirectories moved up (they are removed on their turn).
    if (current !== dir) fs.rmdirSync(current);
  }
  fs.rmdirSync(dir);
}

/** removeTree that reports a failure instead of throwing (start-up and clean-up paths). */
export function tryRemoveTree(dir: string): Error | undefined {
  try {
    removeTree(dir);
    return undefined;
  } catch (err) {
    return err as Error;
  }
}
