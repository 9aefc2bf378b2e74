import fs from 'node:fs';
import path from 'node:path';
import type { SiteFiles } from './site-files.js';

/**
 * Pages written under `outDir` as their batch is final, when the export is not zipped: the export
 * then drops their bytes and reads them back from there if asked (memory flat in site size).
 */
export class DirWriter {
  private readonly root: string;
  private readonly made = new Set<string>();
  private readonly written = new Set<string>();

  constructor(outDir: string) {
    this.root = path.resolve(outDir);
  }

  /** Write one file of the site now and release its bytes from memory. */
  write(site: SiteFiles, file: string): void {
    const target = path.join(this.root, file);
    const dir = path.dirname(target);
    if (!this.made.has(dir)) {
      fs.mkdirSync(dir, { recursive: true });
      this.made.add(dir);
    }
    fs.writeFileSync(target, site.bytes(file));
    site.sha256(file);
    site.release(file, { source: target });
    this.written.add(file);
  }

  has(file: string): boolean {
    return this.written.has(file);
  }

  /** A failed export: remove what this writer wrote, so no half site is left behind. */
  abort(): void {
    for (const file of this.written) fs.rmSync(path.join(this.root, file), { force: true });
    for (const dir of [...this.made].sort().reverse()) {
      try {
        fs.rmdirSync(dir);
      } catch {
        // not empty: it held files of its own
      }
    }
  }
}

/** Write the in-memory site under `outDir` (created if needed; existing files are overwritten), but for what `skip` holds already. */
export async function writeSiteToDir(site: SiteFiles, outDir: string, skip?: { has(file: string): boolean }): Promise<void> {
  const root = path.resolve(outDir);
  const queue = site.sortedPaths().filter((p) => !skip?.has(p));
  const dirs = new Set<string>();
  for (const p of queue) dirs.add(path.dirname(path.join(root, p)));
  for (const d of [...dirs].sort()) fs.mkdirSync(d, { recursive: true });
  // A few writes in flight: enough to keep the disk busy without thousands of open handles.
  const worker = async (): Promise<void> => {
    for (let p = queue.pop(); p !== undefined; p = queue.pop()) {
      await fs.promises.writeFile(path.join(root, p), site.bytes(p));
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}
