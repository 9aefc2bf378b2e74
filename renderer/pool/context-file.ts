import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RenderContext } from '../types.js';

/**
 * The RenderContext (navigation of every section, page index, asset map) can be megabytes for a
 * big site. Sending it with every batch would copy it per task; instead it is written once per
 * export and each worker reads and caches it by path.
 */
export function writeContextFile(ctx: RenderContext): { path: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-render-ctx-'));
  const file = path.join(dir, 'context.json');
  fs.writeFileSync(file, JSON.stringify(ctx));
  return {
    path: file,
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
