#!/usr/bin/env node
// `npm run build` (also at install, `prepare`) and `npm start`'s freshness check. A full tsc run
// costs ~40 s on 2 cores; a start on an unchanged tree must not pay it. With --if-stale, tsc runs
// only when a source file (or a tsconfig / package.json) is newer than the stamp the last
// successful build wrote; the check is a stat of each source file (~50 ms).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildEditor, editorStale } from './build-editor.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = path.join(root, 'dist', '.build-stamp');
/** What tsconfig.build.json compiles, plus the files that change how it compiles. */
const SOURCE_DIRS = ['app', 'config', 'data', 'renderer'];
const INPUT_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json'];

function newestSource() {
  let newest = 0;
  let newestFile = '';
  const visit = (file) => {
    const st = fs.statSync(file);
    if (st.mtimeMs > newest) [newest, newestFile] = [st.mtimeMs, file];
  };
  for (const dir of SOURCE_DIRS) {
    for (const entry of fs.readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && /\.(ts|tsx|mts|json)$/.test(entry.name)) visit(path.join(entry.parentPath, entry.name));
    }
  }
  for (const f of INPUT_FILES) visit(path.join(root, f));
  return { newest, newestFile };
}

function stale() {
  if (!fs.existsSync(STAMP)) return 'no build yet';
  const stamp = fs.statSync(STAMP).mtimeMs;
  const { newest, newestFile } = newestSource();
  return newest > stamp ? `${path.relative(root, newestFile)} changed since the last build` : undefined;
}

const ifStale = process.argv.includes('--if-stale');
// The editor's browser bundle (esbuild, ~2 s) has its own freshness check: a client change does
// not need tsc, a server change does not need esbuild.
const editorReason = ifStale ? editorStale() : 'requested';
if (editorReason !== undefined) {
  if (ifStale) process.stderr.write(`bundling the editor (${editorReason})\n`);
  await buildEditor();
}
const reason = ifStale ? stale() : 'requested';
if (reason === undefined) process.exit(0);
if (ifStale) process.stderr.write(`building the TypeScript (${reason}); this takes about 40 s on 2 cores\n`);
const started = Date.now();
// Time of the inputs the build saw: a file saved during the build makes the next check rebuild.
const stampTime = new Date();
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const run = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
fs.mkdirSync(path.dirname(STAMP), { recursive: true });
fs.writeFileSync(STAMP, `${stampTime.toISOString()}\n`);
fs.utimesSync(STAMP, stampTime, stampTime);
if (ifStale) process.stderr.write(`built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
