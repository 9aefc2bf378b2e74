import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * The directory holding the project's package.json. Templates and client assets are not copied
 * by the TypeScript build, so code running from dist/renderer/ must still read them from the
 * source tree; walking up from this module finds the same root from both places.
 */
export function packageRoot(): string {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate)) {
      try {
        const pkg = JSON.parse(fs.readFileSync(candidate, 'utf8')) as { name?: unknown };
        if (pkg.name === 'docs-appliance') {
          cached = dir;
          return dir;
        }
      } catch {
        // A malformed package.json further down is not ours; keep walking.
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('docs-appliance package root not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}
