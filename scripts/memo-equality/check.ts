/**
 * The render memo's correctness check (issue 43): edit a copy of a repository at random, and
 * after each edit export it twice, with the memo kept across the steps and without any, and
 * compare the two bundles file for file. Timestamps cannot differ: both exports are given the
 * same `createdAt`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { exportSite, type ExportResult, type RenderPool } from '../../renderer/index.js';
import { EDIT_KINDS, RepoEditor, seeded, type EditKind } from './edits.js';

export interface StepResult {
  step: number;
  edit: string;
  /** undefined when the bundles are the same; else the first difference found. */
  difference?: string;
  pagesReused: number;
  pagesRendered: number;
  memoMs: number;
  fullMs: number;
}

export interface CheckOptions {
  /** The repository to copy and edit (it is never changed). */
  source: string;
  steps: number;
  seed: number;
  pool: RenderPool;
  /** Edit kinds to draw from (default all). */
  kinds?: readonly EditKind[];
  onStep?: (r: StepResult) => void;
}

const CREATED_AT = new Date('2026-01-01T00:00:00Z');

type Outcome = { zip: Record<string, Uint8Array>; result: ExportResult } | { error: string };

async function exportOnce(sourceDir: string, outZip: string, pool: RenderPool, memoDir?: string): Promise<{ outcome: Outcome; ms: number }> {
  const started = performance.now();
  try {
    const result = await exportSite({ sourceDir, outZip, pool, createdAt: CREATED_AT, version: 'memo-check', projectId: 'memo', domain: 'docs.memo.internal', ...(memoDir ? { memoDir } : {}) });
    const zip = unzipSync(fs.readFileSync(outZip));
    return { outcome: { zip, result }, ms: performance.now() - started };
  } catch (err) {
    return { outcome: { error: err instanceof Error ? err.message : String(err) }, ms: performance.now() - started };
  }
}

/** The first way two bundles differ, or undefined. */
export function firstDifference(a: Outcome, b: Outcome): string | undefined {
  if ('error' in a || 'error' in b) {
    const ea = 'error' in a ? a.error : 'no error';
    const eb = 'error' in b ? b.error : 'no error';
    return ea === eb ? undefined : `with the memo: ${ea.split('\n')[0]}; without: ${eb.split('\n')[0]}`;
  }
  const names = new Set([...Object.keys(a.zip), ...Object.keys(b.zip)]);
  for (const name of [...names].sort()) {
    const x = a.zip[name];
    const y = b.zip[name];
    if (!x) return `${name} only in the full export`;
    if (!y) return `${name} only in the export with the memo`;
    if (Buffer.compare(Buffer.from(x), Buffer.from(y)) !== 0) return `${name} differs`;
  }
  return undefined;
}

export async function checkMemoEquality(opts: CheckOptions): Promise<StepResult[]> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'memo-check-'));
  const repo = path.join(work, 'repo');
  fs.cpSync(opts.source, repo, { recursive: true, filter: (src) => !/[\\/](\.git|node_modules)$/.test(src) });
  const memoDir = path.join(work, 'memo');
  const editor = new RepoEditor(repo, seeded(opts.seed));
  const kinds = opts.kinds ?? EDIT_KINDS;
  const random = seeded(opts.seed ^ 0x9e3779b9);
  const results: StepResult[] = [];
  try {
    // Step 0 fills the memo from the unedited tree.
    for (let step = 0; step <= opts.steps; step++) {
      let edit = 'none (fills the memo)';
      if (step > 0) {
        let done: string | undefined;
        for (let tries = 0; !done && tries < 20; tries++) done = editor.apply(kinds[Math.floor(random() * kinds.length)]);
        edit = done ?? 'nothing could be edited';
      }
      const withMemo = await exportOnce(repo, path.join(work, 'memo.zip'), opts.pool, memoDir);
      const full = await exportOnce(repo, path.join(work, 'full.zip'), opts.pool);
      const stats = 'result' in withMemo.outcome ? withMemo.outcome.result.memo : undefined;
      const difference = firstDifference(withMemo.outcome, full.outcome);
      const r: StepResult = { step, edit, ...(difference ? { difference } : {}), pagesReused: stats?.pagesReused ?? 0, pagesRendered: stats?.pagesRendered ?? 0, memoMs: withMemo.ms, fullMs: full.ms };
      results.push(r);
      opts.onStep?.(r);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return results;
}
