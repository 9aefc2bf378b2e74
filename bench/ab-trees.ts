import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

/**
 * Two source trees of the appliance (say `main` and a worktree at an earlier commit) exporting the
 * same site on their own render pools in ONE process, exports alternating, medians printed. Single
 * exports swing ±10 % on this machine and the JIT warms for several exports, so comparing two
 * `npm run bench` runs cannot see a 5 % change; alternating in one process can (docs/renderer.md).
 *
 *   node --import tsx bench/ab-trees.ts --a <tree> --b <tree> --site <docs dir> [--rounds 8] [--threads 2]
 *
 * Each tree's renderer loads from its own files (its workers too); both use this process's
 * node_modules. `--a` with `--young 0` / `--b` with `--young 96` instead compares two young
 * generation sizes of the same tree.
 */
const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    site: { type: 'string' },
    rounds: { type: 'string', default: '8' },
    threads: { type: 'string', default: '2' },
    'young-a': { type: 'string' },
    'young-b': { type: 'string' },
  },
});
if (!values.a || !values.b || !values.site) throw new Error('usage: ab-trees.ts --a <tree> --b <tree> --site <docs dir> [--rounds N] [--threads N] [--young-a MB] [--young-b MB]');

type Renderer = typeof import('../renderer/index.js');
const load = async (tree: string): Promise<Renderer> => (await import(path.resolve(tree, 'renderer/index.ts'))) as Renderer;
const young = (v: string | undefined): { youngGenerationMb?: number } => (v === undefined ? {} : { youngGenerationMb: Number(v) });
const sides = [
  { name: 'A', tree: values.a, r: await load(values.a), young: young(values['young-a']) },
  { name: 'B', tree: values.b, r: await load(values.b), young: young(values['young-b']) },
].map((s) => ({ ...s, pool: s.r.createRenderPool({ threads: Number(values.threads), ...s.young }), wall: [] as number[], cpu: [] as number[] }));

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-trees-'));
const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] as number;
try {
  // Two exports each first: worker start-up, module loading, the validator, the JIT's first tiers.
  for (const s of sides) for (let i = 0; i < 2; i++) await s.r.exportSite({ sourceDir: values.site, pool: s.pool, outZip: path.join(work, 'warm.zip') });
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const s of round % 2 === 0 ? sides : [...sides].reverse()) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const out = await s.r.exportSite({ sourceDir: values.site, pool: s.pool, outZip: path.join(work, `${s.name}.zip`) });
      const c = process.cpuUsage(c0);
      s.wall.push(performance.now() - t0);
      s.cpu.push((c.user + c.system) / 1000 / out.pageCount);
    }
  }
  for (const s of sides) {
    console.log(`${s.name} ${s.tree}${s.young.youngGenerationMb === undefined ? '' : ` (young ${s.young.youngGenerationMb} MB)`}: wall median ${Math.round(median(s.wall))} ms, CPU ${median(s.cpu).toFixed(2)} ms a page; runs ${s.wall.map(Math.round).join(' ')}`);
  }
  const [a, b] = sides as [(typeof sides)[number], (typeof sides)[number]];
  console.log(`B against A: wall ${((median(b.wall) / median(a.wall) - 1) * 100).toFixed(1)} %, CPU ${((median(b.cpu) / median(a.cpu) - 1) * 100).toFixed(1)} %`);
} finally {
  for (const s of sides) await s.pool.close();
  fs.rmSync(work, { recursive: true, force: true });
}
