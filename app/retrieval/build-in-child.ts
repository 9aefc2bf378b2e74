import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The builder's heap: it streams the section index line by line. */
const BUILD_HEAP_MB = 256;

/**
 * Build an index file in a child process (app/retrieval/build-process.ts), compiled or from
 * source as the appliance runs. Resolves when the file is in place; rejects with the builder's
 * own message, or its exit, when it is not.
 */
export function buildInChild(source: string | undefined, file: string): Promise<void> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const js = path.join(here, 'build-process.js');
  const entry = fs.existsSync(js) ? [js] : ['--import', 'tsx', path.join(here, 'build-process.ts')];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${BUILD_HEAP_MB}`, ...entry, source ?? '-', file], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr = (stderr + c).slice(-2000)));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) return resolve();
      reject(new Error(`building the search index failed (${signal ?? `exit ${code}`}): ${stderr.trim().split('\n').at(-1) ?? ''}`));
    });
  });
}
