import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createRenderPool, exportSite, type RenderPool } from '../renderer/index.js';
import { prepareSandbox } from '../renderer/islands/sandbox.js';
import { renderBatch } from '../renderer/pool/render-batch.js';
import { generateOpenApiSite } from './gen-openapi.js';
import { generateSite } from './gen-pages.js';

/**
 * The bench's API site (and the hand-written one) exported on ONE thread, in this process, so that
 * `node --cpu-prof` holds every stage in one profile and CPU per page is not blurred by a second
 * render thread waiting on the main one (`--threads N`: on a real pool instead). Prints the
 * process's CPU ms per page for each export, the render steps' wall ms per page (the batch's laps)
 * and the stages' wall ms.
 *
 *   node --import tsx [--cpu-prof --cpu-prof-dir D] bench/openapi-profile.ts [--openapi 1000] [--pages 0] [--runs 3] [--warm] [--threads N] [--out DIR]
 *
 * `--out DIR` keeps each site's last export as DIR/<site>.zip (byte comparisons before and after a change).
 */
const { values } = parseArgs({
  options: {
    openapi: { type: 'string', default: '1000' },
    pages: { type: 'string', default: '0' },
    runs: { type: 'string', default: '3' },
    out: { type: 'string' },
    // As the bench: a 20-operation API site exported first (module loading, validator compile).
    warm: { type: 'boolean', default: false },
    // Render on a real pool of N worker threads instead (CPU then counts every thread, as the bench's).
    threads: { type: 'string' },
  },
});

const inProcessPool: RenderPool = {
  threads: 1,
  run: async (task) => {
    await prepareSandbox();
    return renderBatch(task);
  },
  close: async () => {},
};

async function measure(work: string, name: string, dir: string, runs: number): Promise<void> {
  for (let r = 0; r < runs; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const outZip = values.out && r === runs - 1 ? path.join(values.out, `${name}.zip`) : path.join(work, `${name}.zip`);
    const result = await exportSite({ sourceDir: dir, pool, createdAt: new Date(0), outZip });
    const cpu = process.cpuUsage(c0);
    const ms = performance.now() - t0;
    const perPage = (cpu.user + cpu.system) / 1000 / result.pageCount;
    const steps = Object.entries(result.timings)
      .filter(([k]) => k.startsWith('worker.'))
      .map(([k, v]) => `${k.slice(7)} ${(v / result.pageCount).toFixed(2)}`)
      .join(', ');
    const stages = Object.entries(result.timings)
      .filter(([k]) => !k.startsWith('worker.'))
      .map(([k, v]) => `${k} ${Math.round(v)}`)
      .join(', ');
    console.log(`${name} run ${r + 1}: ${result.pageCount} pages, ${perPage.toFixed(2)} CPU ms a page, ${Math.round(ms)} ms wall; per page (ms): ${steps}; stages (wall ms): ${stages}; warnings ${result.warnings.length}; load ${os.loadavg()[0]?.toFixed(1)}`);
  }
}

const pool: RenderPool = values.threads ? createRenderPool({ threads: Number(values.threads) }) : inProcessPool;
if (values.out) fs.mkdirSync(values.out, { recursive: true });
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-profile-'));
try {
  const runs = Number(values.runs);
  const ops = Number(values.openapi);
  const pages = Number(values.pages);
  if (pages > 0) {
    generateSite(path.join(work, 'pages'), pages);
    await measure(work, 'hand-written', path.join(work, 'pages'), runs);
  }
  if (values.warm) {
    generateOpenApiSite(path.join(work, 'warm'), 20);
    await exportSite({ sourceDir: path.join(work, 'warm'), pool, outZip: path.join(work, 'warm.zip') });
  }
  if (ops > 0) {
    generateOpenApiSite(path.join(work, 'api'), ops);
    await measure(work, 'api', path.join(work, 'api'), runs);
  }
} finally {
  await pool.close();
  fs.rmSync(work, { recursive: true, force: true });
}
