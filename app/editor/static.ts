/**
 * The editor's browser bundle at `<editor>/static/editor.js|css`. In a build (and the image) the
 * files are dist/editor/, made by scripts/build-editor.mjs. Run from source (tsx, tests) with no
 * bundle there, it is built once in memory with the same script (esbuild is a dev dependency, so
 * this path never runs in the image), which keeps dist/ untouched.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Router } from 'express';
import { packageRoot } from '../../renderer/theme/package-root.js';
import { ApiError } from '../errors.js';

const FILES: Readonly<Record<string, string>> = { 'editor.js': 'text/javascript; charset=utf-8', 'editor.css': 'text/css; charset=utf-8' };

type Bundle = Map<string, Buffer>;
let inMemory: Promise<Bundle> | undefined;

async function buildInMemory(): Promise<Bundle> {
  const script = pathToFileURL(path.join(packageRoot(), 'scripts', 'build-editor.mjs')).href;
  const mod = (await import(script)) as { buildEditor(o: { write: boolean }): Promise<{ files: { name: string; contents: Uint8Array }[] }> };
  const { files } = await mod.buildEditor({ write: false });
  return new Map(files.map((f) => [f.name, Buffer.from(f.contents)]));
}

/** The bundle's files: `dir` (default dist/editor) when it holds them, else the in-memory build. */
export async function editorBundle(dir = path.join(packageRoot(), 'dist', 'editor')): Promise<Bundle> {
  if (Object.keys(FILES).every((f) => fs.existsSync(path.join(dir, f)))) {
    return new Map(Object.keys(FILES).map((f) => [f, fs.readFileSync(path.join(dir, f))]));
  }
  inMemory ??= buildInMemory().catch((err: unknown) => {
    inMemory = undefined;
    throw err;
  });
  return inMemory;
}

/** Mount under the editor's base: `router.use('/static', createEditorStaticRouter())`. */
export function createEditorStaticRouter(options: { dir?: string } = {}): Router {
  const router = Router();
  router.get('/:file', async (req, res, next) => {
    const type = FILES[req.params.file];
    if (!type) return next(new ApiError(404, 'NOT_FOUND', 'No such file'));
    try {
      const body = (await editorBundle(options.dir)).get(req.params.file);
      if (!body) return next(new ApiError(404, 'NOT_FOUND', 'No such file'));
      // Revalidated on each load (ETag): a rebuilt bundle is picked up at once after an upgrade.
      res.setHeader('Cache-Control', 'no-cache');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.type(type).send(body);
    } catch (err) {
      next(err);
    }
  });
  return router;
}
