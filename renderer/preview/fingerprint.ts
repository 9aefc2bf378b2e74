import fs from 'node:fs';
import path from 'node:path';

/** Directories never part of a docs site (renderer/load/scan-files.ts skips them too). */
const SKIPPED = new Set(['.git', 'node_modules']);

/**
 * A cheap fingerprint of everything under the docs root: every file's path, size and mtime. Any
 * save (a page, a snippet, docs.json, an image), a new file or a deleted one changes it. A stat
 * walk, not fs.watch: deterministic, no watcher to leak, and measured at a few milliseconds on the
 * bench's 1,000-page site (docs/editor.md, "Live preview").
 */
export function treeFingerprint(root: string): string {
  const parts: string[] = [];
  const walk = (dir: string, rel: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (SKIPPED.has(e.name)) continue;
      const abs = path.join(dir, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(abs, r);
      else {
        const st = fs.lstatSync(abs, { throwIfNoEntry: false });
        if (st) parts.push(`${r}\0${st.size}\0${st.mtimeMs}`);
      }
    }
  };
  walk(root, '');
  return parts.sort().join('\n');
}

/**
 * The same fingerprint without blocking the thread: the preview takes it while the worker renders
 * (a walk of a 1,000-page site measured 10–140 ms on a busy 2-core machine, as long as the render).
 */
export async function treeFingerprintAsync(root: string): Promise<string> {
  const parts: string[] = [];
  const walk = async (dir: string, rel: string): Promise<void> => {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    await Promise.all(
      entries.map(async (e) => {
        if (SKIPPED.has(e.name)) return;
        const abs = path.join(dir, e.name);
        const r = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) return walk(abs, r);
        const st = await fs.promises.lstat(abs).catch(() => undefined);
        if (st) parts.push(`${r}\0${st.size}\0${st.mtimeMs}`);
      }),
    );
  };
  await walk(root, '');
  return parts.sort().join('\n');
}

const TEXT_RE = /\.mdx?$/i;

/**
 * Whether `after` differs from `before` only in the content of existing pages and snippets (.mdx,
 * .md): no file added or removed, docs.json and every other file as they were. Such a change
 * cannot move a page in the navigation; it may only change titles shown in it.
 */
export function textOnlyChange(before: string, after: string): boolean {
  const entriesOf = (fp: string): Map<string, string> => {
    const map = new Map<string, string>();
    for (const line of fp.split('\n')) {
      const cut = line.indexOf('\0');
      if (cut > 0) map.set(line.slice(0, cut), line.slice(cut + 1));
    }
    return map;
  };
  const a = entriesOf(before);
  const b = entriesOf(after);
  if (a.size !== b.size) return false;
  for (const [file, stat] of b) {
    const old = a.get(file);
    if (old === undefined) return false;
    if (old !== stat && !TEXT_RE.test(file)) return false;
  }
  return true;
}
