/**
 * `npm run bench`: runs every bench/*.bench.ts in its own process, one after the other, passing
 * the command-line arguments on (e.g. `npm run bench -- --corpora ../shared/corpora`). Each
 * benchmark prints its own figures beside a baseline measured in the same run.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dir = import.meta.dirname;
const only = process.env.BENCH_ONLY?.split(',').filter(Boolean);
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => !only || only.some((o) => f.startsWith(o)))
  .sort();
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file} (${new Date().toISOString()}) ===`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, file), ...process.argv.slice(2)], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.log(`=== ${file} failed with status ${r.status}`);
  }
}
process.exitCode = failed ? 1 : 0;
