/**
 * The render memo's equality check on real repositories (issue 43, docs/renderer.md "Render memo"):
 *
 *   node --import tsx scripts/memo-equality/run.ts [--steps 12] [--seed 1] <repo>...
 *
 * For each repository: a copy is edited at random, step by step; after each step an export with
 * the memo and a full export must give the same bundle. Prints one line per step (the edit, pages
 * reused / rendered, both times) and exits 1 on any difference.
 */
import { parseArgs } from 'node:util';
import { createRenderPool } from '../../renderer/index.js';
import { checkMemoEquality } from './check.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { steps: { type: 'string', default: '12' }, seed: { type: 'string', default: '1' } } });
if (positionals.length === 0) {
  console.error('usage: scripts/memo-equality/run.ts [--steps N] [--seed S] <repo>...');
  process.exit(2);
}
const pool = createRenderPool();
let failed = 0;
try {
  for (const source of positionals) {
    console.log(`${source} (seed ${values.seed}, ${values.steps} steps)`);
    await checkMemoEquality({
      source,
      steps: Number(values.steps),
      seed: Number(values.seed),
      pool,
      onStep: (r) => {
        if (r.difference) failed++;
        console.log(
          `  ${String(r.step).padStart(2)} ${r.difference ? 'DIFFERS' : 'equal  '} reused ${String(r.pagesReused).padStart(5)} rendered ${String(r.pagesRendered).padStart(5)}  memo ${r.memoMs.toFixed(0).padStart(6)} ms  full ${r.fullMs.toFixed(0).padStart(6)} ms  ${r.edit}${r.difference ? ` — ${r.difference}` : ''}`,
        );
      },
    });
  }
} finally {
  await pool.close();
}
process.exit(failed > 0 ? 1 : 0);
