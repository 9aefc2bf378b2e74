import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../theme/package-root.js';

let cached: string | undefined;

/**
 * What else decides a batch's bytes besides its inputs: the renderer's code as this process runs
 * it (compiled or source, with the templates and client assets read from the source tree), the
 * locked dependency versions, and Node's zlib (pages are deflated in the workers). A reused
 * result from another build of the renderer would be wrong in ways no test of the repository
 * could see, so any difference in these starts the memo afresh. Hashed once per process.
 */
export function rendererId(): string {
  if (cached) return cached;
  const h = createHash('sha256');
  h.update(`node ${process.version} zlib ${process.versions.zlib}\n`);
  const root = packageRoot();
  for (const name of ['package.json', 'package-lock.json']) {
    const file = path.join(root, name);
    if (fs.existsSync(file)) h.update(`${name}\n`).update(fs.readFileSync(file));
  }
  const running = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  for (const dir of new Set([running, path.join(root, 'renderer')])) hashTree(h, dir, path.relative(root, dir));
  cached = h.digest('hex');
  return cached;
}

function hashTree(h: ReturnType<typeof createHash>, dir: string, label: string): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const abs = path.join(dir, e.name);
    const rel = `${label}/${e.name}`;
    if (e.isDirectory()) hashTree(h, abs, rel);
    else if (e.isFile()) h.update(`${rel}\n`).update(fs.readFileSync(abs));
  }
}
