import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RenderContext } from '../types.js';

/**
 * The context as JSON. An OpenAPI document is the one part read from a repository as it is: should
 * one not serialise (a YAML alias that makes a cycle), the export goes on without the documents,
 * and API pages' Markdown carries their rendered text instead of their part of the spec.
 */
function serialise(ctx: RenderContext): string {
  try {
    return JSON.stringify(ctx);
  } catch (err) {
    if (!ctx.apiDocs) throw err;
    const { apiDocs: _docs, ...rest } = ctx;
    return JSON.stringify(rest);
  }
}

/**
 * The RenderContext (navigation of every section, page index, asset map) can be megabytes for a
 * big site. Sending it with every batch would copy it per task; instead it is written once per
 * export and each worker reads and caches it by path.
 */
export function writeContextFile(ctx: RenderContext): { path: string; hash: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-render-ctx-'));
  const file = path.join(dir, 'context.json');
  const text = serialise(ctx);
  fs.writeFileSync(file, text);
  return {
    path: file,
    // What a batch's result depends on besides its task (renderer/memo/render-memo.ts).
    hash: createHash('sha256').update(text).digest('hex'),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
