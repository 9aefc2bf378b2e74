import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createEditorPreview } from '../app/editor/preview.js';
import { createRenderPool, exportSite } from '../renderer/index.js';
import { generateSite } from './gen-pages.js';

/**
 * The editor's live preview (issue 41, docs/editor.md "Live preview") on a generated site:
 *
 *   node --import tsx bench/editor-preview.bench.ts [--preview-pages 1000] [--preview-edits 40]
 *
 * - cold: the first preview of a page (load + plan of the whole site, render pool start, first render);
 * - edit: re-renders of that one page with new unsaved text (what a keystroke pause costs), p50/p95;
 * - save: a render after a saved page (the warm plan answers; the site is replanned behind it), p50;
 * - docs.json: a render after a docs.json change (the site is replanned first), p50;
 * beside the baseline of the same run: a CLI-style export of that one page (`exportSite` with
 * `paths`, to memory, on a warm pool of the same size), and the edit's p50 as a ratio of it.
 * The target: under 500 ms on a 1,000-page site.
 */
const { values } = parseArgs({
  strict: false,
  options: {
    'preview-pages': { type: 'string', default: '1000' },
    'preview-edits': { type: 'string', default: '40' },
  },
});
const str = (v: string | boolean | undefined, d: string): string => (typeof v === 'string' ? v : d);
const pages = Number(str(values['preview-pages'], '1000'));
const edits = Math.max(5, Number(str(values['preview-edits'], '40')));

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
};
const fmt = (ms: number): string => `${ms.toFixed(1)} ms`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-editor-preview-'));
try {
  generateSite(dir, pages);
  const slug = `section-0/page-${Math.min(7, pages - 1)}`;
  const relPath = `${slug}.mdx`;
  const original = fs.readFileSync(path.join(dir, relPath), 'utf8');

  const preview = createEditorPreview();
  let t0 = performance.now();
  const first = await preview.render({ projectId: 'bench', docsRoot: dir, relPath, content: original });
  const cold = performance.now() - t0;
  if (first.errors.length > 0) throw new Error(`preview failed: ${JSON.stringify(first.errors)}`);

  const editMs: number[] = [];
  for (let i = 0; i < edits; i++) {
    const content = `${original}\n\nA sentence typed in the editor, pause ${i}.\n`;
    t0 = performance.now();
    const r = await preview.render({ projectId: 'bench', docsRoot: dir, relPath, content });
    editMs.push(performance.now() - t0);
    if (!r.html.includes(`pause ${i}.`)) throw new Error('the edit is not in the preview');
  }

  const saveMs: number[] = [];
  for (let i = 0; i < 5; i++) {
    fs.writeFileSync(path.join(dir, relPath), `${original}\n\nSaved ${i}.\n`);
    t0 = performance.now();
    await preview.render({ projectId: 'bench', docsRoot: dir, relPath, content: `${original}\n\nSaved ${i}.\n` });
    saveMs.push(performance.now() - t0);
  }
  fs.writeFileSync(path.join(dir, relPath), original);
  // Let the replans the saves started finish before the next figure.
  await new Promise((r) => setTimeout(r, 2000));

  const configMs: number[] = [];
  const docsJson = path.join(dir, 'docs.json');
  const config = JSON.parse(fs.readFileSync(docsJson, 'utf8')) as Record<string, unknown>;
  for (let i = 0; i < 5; i++) {
    fs.writeFileSync(docsJson, JSON.stringify({ ...config, name: `Renamed ${i}` }, null, 2));
    t0 = performance.now();
    const r = await preview.render({ projectId: 'bench', docsRoot: dir, relPath, content: original });
    configMs.push(performance.now() - t0);
    if (!r.html.includes(`Renamed ${i}`)) throw new Error('the docs.json change is not in the preview');
  }
  fs.writeFileSync(docsJson, JSON.stringify(config, null, 2));
  await preview.close();

  // Baseline: the CLI's one-page export, on a warm pool of the preview's size (one worker).
  const pool = createRenderPool({ threads: 1 });
  const exportMs: number[] = [];
  try {
    for (let i = 0; i < 6; i++) {
      t0 = performance.now();
      await exportSite({ sourceDir: dir, paths: [slug], pool });
      // The first run warms the worker, as the preview's cold render did.
      if (i > 0) exportMs.push(performance.now() - t0);
    }
  } finally {
    await pool.close();
  }

  const p50 = quantile(editMs, 0.5);
  const exportP50 = quantile(exportMs, 0.5);
  console.log(`editor preview, ${pages}-page site, page ${relPath}`);
  console.log(`  cold (plan the site, start the pool, first render): ${fmt(cold)}`);
  console.log(`  edit re-render (${edits}): p50 ${fmt(p50)}, p95 ${fmt(quantile(editMs, 0.95))}, max ${fmt(Math.max(...editMs))}`);
  console.log(`  after a saved page (warm plan answers, replan behind it, ${saveMs.length}): p50 ${fmt(quantile(saveMs, 0.5))}, max ${fmt(Math.max(...saveMs))}`);
  console.log(`  after a docs.json change (replan, then render, ${configMs.length}): p50 ${fmt(quantile(configMs, 0.5))}, max ${fmt(Math.max(...configMs))}`);
  console.log(`  baseline: one-page export (exportSite with paths, warm pool, ${exportMs.length}): p50 ${fmt(exportP50)}`);
  console.log(`  edit p50 / one-page export p50: ${(p50 / exportP50).toFixed(3)} (target: edit p95 under 500 ms: ${quantile(editMs, 0.95) < 500 ? 'met' : 'NOT met'})`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
