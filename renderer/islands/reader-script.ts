/**
 * `reader.js` (renderer/assets/client) as a page's file: `_static/islands/reader.<hash>.js`,
 * shipped only with pages that read `user` (personalization, issue 40) or, with reader access
 * on, that have a playground to prefill. A page that does neither is written exactly as before.
 */
import fs from 'node:fs';
import path from 'node:path';
import { contentHash } from '../theme/assets.js';
import { packageRoot } from '../theme/package-root.js';
import type { PageIslands } from './island.js';

let script: { bundlePath: string; code: string } | undefined;

export function readerScript(): { bundlePath: string; code: string } {
  if (!script) {
    const code = fs.readFileSync(path.join(packageRoot(), 'renderer', 'assets', 'client', 'reader.js'), 'utf8');
    script = { bundlePath: `_static/islands/reader.${contentHash(new Uint8Array(Buffer.from(code, 'utf8')))}.js`, code };
  }
  return script;
}

/** The page's scripts with reader.js first: it must have said a user is coming before the runtime boots. */
export function withReaderScript(islands: PageIslands | undefined): PageIslands {
  const r = readerScript();
  const out: PageIslands = islands ? { scripts: [...islands.scripts], files: { ...islands.files } } : { scripts: [], files: {} };
  out.scripts.unshift(`/${r.bundlePath}`);
  out.files[r.bundlePath] = r.code;
  return out;
}
