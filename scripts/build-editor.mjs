#!/usr/bin/env node
// The web editor's browser bundle (issue 41): app/editor/client/main.ts and the CSS it imports,
// bundled by esbuild into dist/editor/editor.js + editor.css. Minified, no source map (the
// appliance serves nothing it did not build), and no remote import: everything the page runs is
// in these two files. Called by scripts/build.mjs; `node scripts/build-editor.mjs` builds it alone.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const EDITOR_CLIENT_DIR = path.join(root, 'app', 'editor', 'client');
export const EDITOR_ENTRY = path.join(EDITOR_CLIENT_DIR, 'main.ts');
export const EDITOR_OUT_DIR = path.join(root, 'dist', 'editor');
const VISUAL_ENTRY = path.join(EDITOR_CLIENT_DIR, 'visual', 'index.ts');

/**
 * `virtual:editor-visual` is the visual mode (app/editor/client/visual/index.ts) when that file
 * exists, else a module exporting no `mountVisualEditor` (the page then offers source mode only).
 * Remote specifiers fail the build: the editor runs inside networks with no way out.
 */
const editorResolve = {
  name: 'editor-resolve',
  setup(build) {
    build.onResolve({ filter: /^virtual:editor-visual$/ }, () =>
      fs.existsSync(VISUAL_ENTRY) ? { path: VISUAL_ENTRY } : { path: 'visual-absent', namespace: 'editor-visual-absent' });
    build.onLoad({ filter: /.*/, namespace: 'editor-visual-absent' }, () => ({ contents: 'export const mountVisualEditor = undefined;', loader: 'js' }));
    build.onResolve({ filter: /^(https?:)?\/\// }, (args) => ({ errors: [{ text: `remote import refused: ${args.path}` }] }));
  },
};

/**
 * Build the bundle. `outDir` defaults to dist/editor; `write: false` returns the files instead
 * (the editor's static route uses that when run from source with no dist/ bundle); `entry`
 * replaces main.ts (tests of the build's rules).
 * @returns {Promise<{ files: { name: string, contents: Uint8Array }[] }>}
 */
export async function buildEditor({ outDir = EDITOR_OUT_DIR, write = true, entry = EDITOR_ENTRY } = {}) {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: { editor: entry },
    outdir: outDir,
    bundle: true,
    minify: true,
    sourcemap: false,
    format: 'iife',
    platform: 'browser',
    target: ['chrome109', 'firefox115', 'safari16'],
    legalComments: 'none',
    charset: 'utf8',
    write,
    logLevel: 'silent',
    plugins: [editorResolve],
  });
  const files = (result.outputFiles ?? []).map((f) => ({ name: path.basename(f.path), contents: f.contents }));
  return { files };
}

/** Newest mtime under app/editor/client (the --if-stale check of scripts/build.mjs). */
export function newestEditorSource() {
  let newest = 0;
  for (const entry of fs.readdirSync(EDITOR_CLIENT_DIR, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Why the bundle needs building, or undefined when dist/editor is newer than every client source. */
export function editorStale() {
  const out = path.join(EDITOR_OUT_DIR, 'editor.js');
  if (!fs.existsSync(out) || !fs.existsSync(path.join(EDITOR_OUT_DIR, 'editor.css'))) return 'no editor bundle yet';
  return newestEditorSource() > fs.statSync(out).mtimeMs ? 'app/editor/client changed since the last bundle' : undefined;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildEditor();
}
