import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { realRoot } from '../repo-root.js';

/**
 * What a render worker learnt of the repository while rendering one batch: every file it read
 * (by the hash of its bytes) and every path it only looked at (by what it found there). A batch's
 * output is a function of its task, the export's context and these observations, so a later
 * export whose repository gives the same observations may reuse the output (renderer/memo/).
 *
 * Recorded by renderer/repo-files.ts and renderer/page/snippets.ts, the only places a worker
 * touches the repository; nothing is recorded unless a batch asked for it.
 */
export type ReadLog = Record<string, string>;

let active: Map<string, string> | undefined;

/** Start recording for one batch (the worker renders one batch at a time). */
export function startReadLog(): void {
  active = new Map();
}

/** Stop recording and return what was seen, keyed `read:<rel>` / `probe:<rel>`. */
export function takeReadLog(): ReadLog {
  const log = active ? Object.fromEntries(active) : {};
  active = undefined;
  return log;
}

export const recording = (): boolean => active !== undefined;

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A file's bytes were read (or the read failed with `problem`). */
export function recordRead(rel: string, outcome: { bytes: Uint8Array } | { problem: string }): void {
  if (!active) return;
  active.set(`read:${rel}`, 'bytes' in outcome ? sha256(outcome.bytes) : `!${outcome.problem}`);
}

/** A file read earlier and kept parsed (renderer/page/snippets.ts): its hash as it was read. */
export function recordReadHash(rel: string, hash: string): void {
  active?.set(`read:${rel}`, hash);
}

/** A path was looked at (exists? a file? a link? inside the repository?) without reading it. */
export function recordProbe(repoRoot: string, rel: string): void {
  if (!active || active.has(`probe:${rel}`)) return;
  active.set(`probe:${rel}`, probeState(repoRoot, rel));
}

/**
 * Everything a lookup by path can tell apart: the entry's own type (lstat), and where its real
 * path leads (inside the repository or not) and what is there. Two equal states answer every
 * such lookup alike.
 */
export function probeState(repoRoot: string, rel: string): string {
  let root: string;
  try {
    root = realRoot(repoRoot);
  } catch {
    return 'no-root';
  }
  const lexical = path.resolve(repoRoot, rel);
  let own: fs.Stats | undefined;
  try {
    own = fs.lstatSync(lexical, { throwIfNoEntry: false });
  } catch {
    return 'error';
  }
  if (!own) return 'absent';
  const type = own.isFile() ? 'file' : own.isSymbolicLink() ? 'link' : own.isDirectory() ? 'dir' : 'other';
  let target = 'broken';
  try {
    const real = fs.realpathSync.native(lexical);
    const st = fs.statSync(real);
    target = `${real.startsWith(root + path.sep) ? 'in' : 'out'}:${st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'other'}:${st.size}`;
  } catch {
    // A dangling link, a loop: 'broken' says so.
  }
  return `${type}>${target}`;
}
