import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadBundle } from './app/loader/load-bundle.js';
import { prepareSpareTree } from './app/loader/spare-tree.js';
import { createLogger } from './app/logger.js';
const zip = process.argv[2]!;
const state = fs.mkdtempSync(path.join(os.tmpdir(), 'reuse-time-'));
const opts = (extra = {}) => ({ stateDir: state, bundleUrl: zip, limits: { maxEntries: 100000, maxUncompressedBytes: 2 ** 34 }, verifyTimeoutMs: 600000, fetch: { connectTimeoutMs: 1000, totalTimeoutMs: 5000, retries: 0, maxBytes: 2 ** 34, backoffMs: 10 }, log: createLogger('warn'), ...extra });
async function main() {
  let t = performance.now();
  const a = await loadBundle(opts());
  console.log('full', Math.round(performance.now() - t), 'ms');
  fs.renameSync(a.dir, a.dir + '-prev');
  t = performance.now();
  await prepareSpareTree(state, a.dir + '-prev');
  console.log('spare', Math.round(performance.now() - t), 'ms');
  t = performance.now();
  const b = await loadBundle(opts({ reuseFrom: a.dir + '-prev', spareTree: true }));
  console.log('reuse+spare', Math.round(performance.now() - t), 'ms');
  fs.rmSync(state, { recursive: true, force: true });
}
main();
