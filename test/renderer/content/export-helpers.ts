/** Exports a small throw-away site with the real pipeline and reads its pages back. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportSite, type ExportResult } from '../../../renderer/index.js';
import { tempSite } from '../load/site-fixtures.js';
import { sharedRenderPool } from '../../helpers/render-pool.js';

export interface Exported {
  result: ExportResult;
  outDir: string;
  /** The page served at a URL path (`/ar`), whichever file the bundle layout puts it in. */
  page: (urlPath: string) => string;
  file: (rel: string) => string | undefined;
}

export async function exportFiles(files: Record<string, string>): Promise<Exported> {
  const sourceDir = tempSite(files);
  const outDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docs-content-')), 'site');
  const pool = sharedRenderPool(1);
  try {
    const result = await exportSite({ sourceDir, outDir, pool, jobId: 'se_0123456789abcdef', projectId: 'p', domain: 'docs.example', version: 'v1', createdAt: new Date('2026-01-01T00:00:00Z') });
    const file = (rel: string): string | undefined => {
      const abs = path.join(outDir, rel);
      return fs.existsSync(abs) ? fs.readFileSync(abs, 'utf8') : undefined;
    };
    const page = (urlPath: string): string => {
      const rel = urlPath.replace(/^\/+|\/+$/g, '') || 'index';
      for (const candidate of [`${rel}.html`, `${rel}/index.html`]) {
        const text = file(candidate);
        if (text !== undefined) return text;
      }
      throw new Error(`no page was written for ${urlPath}`);
    };
    return { result, outDir, page, file };
  } finally {
    await pool.close();
  }
}

/** docs.json with the given pages in one group, plus extra settings. */
export function docsJson(pages: string[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ name: 'Acme', theme: 'mint', colors: { primary: '#0d9373' }, navigation: { groups: [{ group: 'Docs', pages }] }, ...extra });
}

/** Every id="…" on a page, in order (entities decoded as a browser would). */
export function ids(html: string): string[] {
  return [...html.matchAll(/\sid="([^"]*)"/g)].map((m) => (m[1] ?? '').replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>'));
}

export function count(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}
