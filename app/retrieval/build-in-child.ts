import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The builder's heap: it streams the section index line by line. */
const BUILD_HEAP_MB = 256;

/** Builds running now, with the index file each writes (its temporary file carries the child's pid). */
const live = new Map<ChildProcess, string>();

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
    // stdin is a pipe the builder watches: when the appliance is gone (even by SIGKILL) it ends,
    // and the builder stops instead of writing into a state directory nobody serves.
    const child = spawn(process.execPath, [`--max-old-space-size=${BUILD_HEAP_MB}`, ...entry, source ?? '-', file], { stdio: ['pipe', 'ignore', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
    live.set(child, file);
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr = (stderr + c).slice(-2000)));
    child.once('error', (err) => {
      live.delete(child);
      reject(err);
    });
    child.once('exit', (code, signal) => {
      live.delete(child);
      if (code === 0) return resolve();
      reject(new Error(`building the search index failed (${signal ?? `exit ${code}`}): ${stderr.trim().split('\n').at(-1) ?? ''}`));
    });
  });
}

/**
 * Stop every build and wait for it to be gone, its temporary file removed: after this nothing
 * the retrieval thread started writes under the state directory (shutdown, a test's clean-up).
 */
export async function stopBuilds(): Promise<void> {
  await Promise.all(
    [...live].map(
      ([child, file]) =>
        new Promise<void>((resolve) => {
          const done = () => {
            removeTemporaries(file, child.pid);
            resolve();
          };
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.once('exit', done);
          child.kill('SIGKILL');
        }),
    ),
  );
}

function removeTemporaries(file: string, pid: number | undefined): void {
  if (pid === undefined) return;
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.${pid}.`;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  // SQLite's journal beside the temporary file goes too.
  for (const name of names) if (name.startsWith(prefix)) fs.rmSync(path.join(dir, name), { force: true });
}
