import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createRenderPool, exportSite, ExportError, type RenderPool } from '../renderer/index.js';
import { generateOpenApiSite } from './gen-openapi.js';
import type { ApiFloor } from './openapi-floor.js';
import { generateShape, generateSite } from './gen-pages.js';
import { CHROMIUM_PATH, measureSearch, serveFiles, type SearchFigures } from './search-browser.js';
import type { Floors } from './stage-floor.js';

/**
 * Renderer benchmark: full exports (render + index + zip to a file) of generated sites against the
 * floor measured in the same run (read every page + marked.parse, one thread), then every corpus
 * found in --corpora.
 *
 *   node --import tsx bench/renderer.bench.ts [--sizes 1000,10000] [--flat 10000] [--i18n 25000]
 *     [--openapi 1000] [--api-warmup 5] [--runs 3] [--threads N] [--corpora DIR]
 *
 * Issue 18's shapes: `--flat N` one tab of 20 groups × N/20 pages, `--i18n N` 16 languages × 10
 * versions (0 skips either); on the i18n site reader search is measured in Chromium as well.
 */

// Not strict: `npm run bench` passes every benchmark the same arguments, some meant for others.
const { values } = parseArgs({
  strict: false,
  options: {
    sizes: { type: 'string', default: '1000,10000' },
    flat: { type: 'string', default: '10000' },
    i18n: { type: 'string', default: '25000' },
    // Operations of the generated OpenAPI spec (its pages are exported beside the hand-written ones); 0 skips it.
    openapi: { type: 'string', default: '1000' },
    // Exports of the API row's own site before its timed runs (docs/api-reference.md, "Ninth pass").
    'api-warmup': { type: 'string', default: '5' },
    runs: { type: 'string', default: '3' },
    threads: { type: 'string' },
    corpora: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const str = (v: string | boolean | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
const sizes = (str(values.sizes) ?? '1000,10000').split(',').filter(Boolean).map(Number);
const runs = Math.max(1, Number(str(values.runs) ?? '3'));
const apiWarmups = Math.max(0, Number(str(values['api-warmup']) ?? '5'));
const MB = 1024 * 1024;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

/** Peak RSS of the whole process (workers are threads of it) while fn runs, sampled every 20 ms. */
async function withPeakRss<T>(fn: () => Promise<T>): Promise<{ value: T; peakRss: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    const value = await fn();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, peakRss: peak };
  } finally {
    clearInterval(timer);
  }
}

/** CPU seconds of the whole process (all threads) spent in fn: robust to a busy machine, unlike wall time. */
function cpuSeconds(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1e6;
}

interface Row {
  name: string;
  pages: number;
  exportMs: number;
  exportCpu: number;
  floorMs?: number;
  floorCpu?: number;
  /** One thread: the stages' bare library calls (bench/stage-floor.ts), with and without deflate. */
  stageFloorMs?: number;
  storedStageFloorMs?: number;
  /** The stage floor run on all cores at once (wall ms of the slowest share). */
  stageFloorAllCoresMs?: number;
  peakRss: number;
  zipBytes: number;
  timings: Record<string, number>;
  note: string;
  /** API rows: the library floor of their pages, one thread. */
  apiFloor?: ApiFloor;
  /** Every run's wall ms, in the order they ran (the median is the row's). */
  runsMs?: number[];
  /** API row: the warm-up exports' wall ms, in order, before the timed runs. */
  warmupMs?: number[];
}

async function timeExport(pool: RenderPool, sourceDir: string, outZip: string): Promise<{ ms: number; cpu: number; pages: number; zipBytes: number; timings: Record<string, number>; warnings: Map<string, number>; peakRss: number; files: ReadonlyMap<string, Uint8Array> }> {
  if (global.gc) global.gc();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const { value, peakRss } = await withPeakRss(() => exportSite({ sourceDir, outZip, pool, createdAt: new Date(0) }));
  const ms = performance.now() - t0;
  const cpu = cpuSeconds(c0);
  const warnings = new Map<string, number>();
  for (const w of value.warnings) warnings.set(w.code, (warnings.get(w.code) ?? 0) + 1);
  return { ms, cpu, pages: value.pageCount, zipBytes: value.sizeBytes ?? 0, timings: value.timings, warnings, peakRss, files: value.files };
}

/** The floors, measured in a child process (see stage-floor.ts): their garbage stays out of the export's RSS. */
function timeFloor(dir: string): Floors {
  const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'stage-floor.ts'), dir], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`floor measurement failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as Floors;
}

/** The API pages' library floor (bench/openapi-floor.ts), in a child process for the same reason. */
function timeApiFloor(specFile: string): ApiFloor {
  const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'openapi-floor.ts'), specFile], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`API floor measurement failed: ${child.stderr}`);
  return JSON.parse(child.stdout) as ApiFloor;
}

/**
 * The stage floor measured on all cores (issue 18's ratio is "export ÷ stage floor on all cores"):
 * one process per render thread, each with an equal share of the pages, started together after
 * their warm-ups; the slowest share's time. Dividing the one-thread floor by the thread count
 * assumes the cores scale perfectly, which on a shared machine they do not quite.
 */
async function timeStageFloorOnAllCores(dir: string, threads: number): Promise<number> {
  const script = path.join(import.meta.dirname, 'stage-floor.ts');
  const children = Array.from({ length: threads }, (_, part) => spawn(process.execPath, ['--import', 'tsx', script, dir, String(part), String(threads)], { stdio: ['pipe', 'pipe', 'inherit'] }));
  const outputs = children.map((child) => {
    let out = '';
    const ready = new Promise<void>((resolve) => child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('ready\n')) resolve();
    }));
    const done = new Promise<number>((resolve, reject) => child.on('close', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0) reject(new Error(`stage floor share failed (exit ${code})`));
      else resolve((JSON.parse(last) as { ms: number }).ms);
    }));
    return { child, ready, done };
  });
  await Promise.all(outputs.map((o) => o.ready));
  for (const o of outputs) o.child.stdin.write('go\n');
  return Math.max(...(await Promise.all(outputs.map((o) => o.done))));
}

const floorFields = (floors: Floors[], allCores: number[] = []): Pick<Row, 'floorMs' | 'floorCpu' | 'stageFloorMs' | 'storedStageFloorMs' | 'stageFloorAllCoresMs'> => ({
  floorMs: median(floors.map((f) => f.ms)),
  floorCpu: median(floors.map((f) => f.cpu)),
  stageFloorMs: median(floors.map((f) => f.stageMs)),
  storedStageFloorMs: median(floors.map((f) => f.storedStageMs)),
  ...(allCores.length ? { stageFloorAllCoresMs: median(allCores) } : {}),
});

function printTable(rows: Row[], threads: number): void {
  const header = ['site', 'pages', 'export s', 'pages/s', 'floor s', 'vs floor', 'stage floor s', `vs stage floor ÷ ${threads}`, 'stage floor, all cores s', 'vs stage floor, all cores', 'best vs floor', 'best, stored zip', 'cpu s', 'floor cpu s', 'peak RSS', 'zip MB', 'stages (ms)'];
  const body = rows.map((r) => [
    r.name,
    String(r.pages),
    (r.exportMs / 1000).toFixed(2),
    Math.round(r.pages / (r.exportMs / 1000)).toLocaleString('en-US'),
    r.floorMs === undefined ? '' : (r.floorMs / 1000).toFixed(2),
    r.floorMs === undefined ? '' : `${(r.floorMs / r.exportMs).toFixed(2)}×`,
    r.stageFloorMs === undefined ? '' : (r.stageFloorMs / 1000).toFixed(2),
    r.stageFloorMs === undefined ? '' : `${(r.stageFloorMs / threads / r.exportMs).toFixed(2)}×`,
    r.stageFloorAllCoresMs === undefined ? '' : (r.stageFloorAllCoresMs / 1000).toFixed(2),
    r.stageFloorAllCoresMs === undefined ? '' : `${(r.stageFloorAllCoresMs / r.exportMs).toFixed(2)}×`,
    r.floorMs === undefined || r.stageFloorMs === undefined ? '' : `${(r.floorMs / (r.stageFloorMs / threads)).toFixed(2)}×`,
    r.floorMs === undefined || r.storedStageFloorMs === undefined ? '' : `${(r.floorMs / (r.storedStageFloorMs / threads)).toFixed(2)}×`,
    r.exportCpu.toFixed(2),
    r.floorCpu === undefined ? '' : r.floorCpu.toFixed(2),
    `${Math.round(r.peakRss / MB)} MB`,
    (r.zipBytes / MB).toFixed(1),
    Object.entries(r.timings)
      .map(([k, v]) => `${k} ${Math.round(v)}`)
      .join(', ') + (r.note ? `  ${r.note}` : ''),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const b of body) console.log(line(b));
}

/**
 * An API page's cost beside a hand-written page's, from the same run: CPU seconds per page (all
 * threads) hold up on a busy machine better than pages/s, and the two rows saw the same load.
 */
function printApiRatio(rows: Row[]): void {
  const api = rows.find((r) => r.name.startsWith('openapi '));
  const hand = rows.find((r) => r.name.startsWith('generated '));
  if (!api || !hand || !(api.pages > 0) || !(hand.pages > 0)) return;
  const perPage = (r: Row): number => (r.exportCpu / r.pages) * 1000;
  console.log(
    `\nAPI pages beside hand-written ones (same run): ${perPage(api).toFixed(2)} vs ${perPage(hand).toFixed(2)} CPU ms per page (${(perPage(api) / perPage(hand)).toFixed(2)}×), ` +
      `${Math.round(api.pages / (api.exportMs / 1000))} vs ${Math.round(hand.pages / (hand.exportMs / 1000))} pages/s; issue 16's target is 500 API pages/s`,
  );
  // The exports one after another: the workers' JIT warms through the first few thousand API
  // pages, so the order tells as much as the median.
  const rates = (list: number[]): string => list.map((ms) => `${Math.round(api.pages / (ms / 1000))}`).join(', ');
  if (api.warmupMs?.length) console.log(`API warm-up exports before the timed runs, in order: ${rates(api.warmupMs)} pages/s (the first is a pool that has rendered 200 API pages)`);
  if (api.runsMs) console.log(`API timed runs in the order they ran: ${rates(api.runsMs)} pages/s`);
  const f = api.apiFloor;
  if (f) {
    console.log(
      `API pages' library floor (bench/openapi-floor.ts, one thread, same run): ${f.cpuMsPerPage.toFixed(2)} CPU ms per page with highlight.js on every snippet, ` +
        `${f.unhighlightedCpuMsPerPage.toFixed(2)} without (httpsnippet, marked, deflate, hashes); the export: ${perPage(api).toFixed(2)} on all threads ` +
        `(${(perPage(api) / f.cpuMsPerPage).toFixed(2)}× and ${(perPage(api) / f.unhighlightedCpuMsPerPage).toFixed(2)}× those floors)`,
    );
  }
}

/**
 * Reader search on the exported i18n site, in Chromium: a first query (cold cache) on an English
 * v5 page for a word on almost every page, then for one page's own word (it exists in all 10
 * versions and 16 languages), widened to every version and language.
 */
async function searchFigures(files: ReadonlyMap<string, Uint8Array>): Promise<SearchFigures[]> {
  if (!CHROMIUM_PATH) {
    console.log('search in Chromium: skipped (no Chromium; set CHROMIUM_PATH)');
    return [];
  }
  const server = await serveFiles(files);
  try {
    return [await measureSearch(server.origin, '/en/v5/page-3/', 'throughput'), await measureSearch(server.origin, '/en/v5/page-3/', 'handle42', { widen: true })];
  } finally {
    await server.close();
  }
}

function printSearch(rows: SearchFigures[]): void {
  console.log('\nreader search in Chromium (i18n site, page /en/v5/page-3/, cold cache, gzip):');
  for (const r of rows) {
    console.log(
      `  "${r.query}": first query ${(r.bytes / 1024).toFixed(1)} KB in ${r.files} files (search.js, library, index), first results in ${Math.round(r.ms)} ms, ${r.results} shown, first ${r.firstUrl}` +
        (r.wide ? `; widened: ${r.wide.results} shown, ${r.wide.labelled} labelled, first ${r.wide.firstUrl}${r.wide.firstLabel ? ` (${r.wide.firstLabel})` : ' (unlabelled: the reader’s version)'}` : ''),
    );
  }
}

async function main(): Promise<void> {
  const threads = str(values.threads) ? Number(str(values.threads)) : os.availableParallelism();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'renderer-bench-'));
  console.log(`renderer benchmark: node ${process.version}, ${os.availableParallelism()} cores, ${threads} render threads, ${runs} run(s) each (median), work dir ${work}`);
  const pool = createRenderPool({ threads });
  const rows: Row[] = [];
  const searchRows: SearchFigures[] = [];
  try {
    // Warm the pool (worker start-up, module loading): a long-lived appliance pays this once.
    const warm = path.join(work, 'warm');
    generateSite(warm, 50);
    await exportSite({ sourceDir: warm, outZip: path.join(work, 'warm.zip'), pool });
    if (Number(str(values.openapi) ?? '1000') > 0) {
      // The same for API pages: the OpenAPI modules and httpsnippet load on a worker's first API
      // page and the spec validator compiles on the first spec; measured cold, that first-use cost
      // (docs/api-reference.md, "Scale") was counted in the row as if every export paid it. The
      // JIT's longer warm-up on API pages is the API row's own (below).
      const warmApi = path.join(work, 'warm-openapi');
      generateOpenApiSite(warmApi, 200);
      await exportSite({ sourceDir: warmApi, outZip: path.join(work, 'warm-openapi.zip'), pool });
    }

    // API pages generated from one spec (issue 16): parsing happens once per export, in the plan.
    // Measured first: the process's resident memory only grows over the rows (the 25,000-page
    // site leaves it above 1 GB), and this row's peak is to be this export's, as it would be in an
    // appliance that exports this project; the hand-written rows follow in the same run.
    const operations = Number(str(values.openapi) ?? '1000');
    if (operations > 0) {
      const dir = path.join(work, `openapi-${operations}`);
      const { specBytes } = generateOpenApiSite(dir, operations);
      const apiFloor = timeApiFloor(path.join(dir, 'openapi.json'));
      // A render worker reaches its steady speed on API pages only after about 2,500 of them (a
      // fresh 2-thread pool, this site exported ten times: 316, 351, 397, 410, 510, then 560–600
      // pages/s), long after the hand-written pages' code has warmed. The row is a long-lived
      // appliance's pool, as the floors are warmed code: the warm-up exports are timed and printed
      // in order, so the cold figures stay in the output (`--api-warmup 0` times a pool that has
      // rendered only the 200 operations above).
      const warmups: Awaited<ReturnType<typeof timeExport>>[] = [];
      for (let r = 0; r < apiWarmups; r++) warmups.push(await timeExport(pool, dir, path.join(work, `openapi-${operations}.zip`)));
      const results: Awaited<ReturnType<typeof timeExport>>[] = [];
      for (let r = 0; r < runs; r++) results.push(await timeExport(pool, dir, path.join(work, `openapi-${operations}.zip`)));
      const mid = results.slice().sort((a, b) => a.ms - b.ms)[Math.floor(results.length / 2)] as (typeof results)[number];
      const warnings = [...mid.warnings.entries()].map(([c, k]) => `${c} ${k}`).join(', ');
      rows.push({
        name: `openapi ${operations} ops (${(specBytes / MB).toFixed(1)} MB spec)`,
        pages: mid.pages,
        exportMs: mid.ms,
        exportCpu: mid.cpu,
        // The warm-up exports' peaks too: the same export, and memory is issue 16's other limit.
        peakRss: Math.max(...[...warmups, ...results].map((r) => r.peakRss)),
        zipBytes: mid.zipBytes,
        timings: mid.timings,
        note: warnings ? `warnings: ${warnings}` : '',
        apiFloor,
        runsMs: results.map((r) => r.ms),
        warmupMs: warmups.map((r) => r.ms),
      });
      if (!values.keep) fs.rmSync(dir, { recursive: true, force: true });
    }

    for (const n of sizes) {
      const dir = path.join(work, `gen-${n}`);
      generateSite(dir, n);
      const floors: Floors[] = [];
      const allCores: number[] = [];
      const results: Awaited<ReturnType<typeof timeExport>>[] = [];
      for (let r = 0; r < runs; r++) {
        floors.push(timeFloor(dir));
        allCores.push(await timeStageFloorOnAllCores(dir, threads));
        results.push(await timeExport(pool, dir, path.join(work, `gen-${n}.zip`)));
      }
      const mid = results.slice().sort((a, b) => a.ms - b.ms)[Math.floor(results.length / 2)] as (typeof results)[number];
      rows.push({
        name: `generated ${n}`,
        pages: mid.pages,
        exportMs: mid.ms,
        exportCpu: mid.cpu,
        ...floorFields(floors, allCores),
        peakRss: Math.max(...results.map((r) => r.peakRss)),
        zipBytes: mid.zipBytes,
        timings: mid.timings,
        note: '',
      });
      if (!values.keep) fs.rmSync(dir, { recursive: true, force: true });
    }

    // Issue 18's shapes: a flat navigation (one tab, 20 big groups) and a 16-language ×
    // 10-version site, each beside its floors measured in the same run.
    for (const [shape, count] of [['flat', Number(str(values.flat) ?? '10000')], ['i18n', Number(str(values.i18n) ?? '25000')]] as const) {
      if (!(count > 0)) continue;
      const dir = path.join(work, `${shape}-${count}`);
      generateShape(dir, count, shape);
      const floors: Floors[] = [];
      const allCores: number[] = [];
      const results: Awaited<ReturnType<typeof timeExport>>[] = [];
      for (let r = 0; r < runs; r++) {
        floors.push(timeFloor(dir));
        allCores.push(await timeStageFloorOnAllCores(dir, threads));
        results.push(await timeExport(pool, dir, path.join(work, `${shape}-${count}-${r}.zip`)));
      }
      const mid = results.slice().sort((a, b) => a.ms - b.ms)[Math.floor(results.length / 2)] as (typeof results)[number];
      rows.push({
        name: shape === 'flat' ? `flat 20 × ${count / 20}` : `${count} pages, 16 languages × 10 versions`,
        pages: mid.pages,
        exportMs: mid.ms,
        exportCpu: mid.cpu,
        ...floorFields(floors, allCores),
        peakRss: Math.max(...results.map((r) => r.peakRss)),
        zipBytes: mid.zipBytes,
        timings: mid.timings,
        note: '',
      });
      if (shape === 'i18n') searchRows.push(...(await searchFigures(mid.files)));
      if (!values.keep) fs.rmSync(dir, { recursive: true, force: true });
    }

    const corporaDir = str(values.corpora);
    if (corporaDir) {
      const root = path.resolve(corporaDir);
      const corpora = fs
        .readdirSync(root, { withFileTypes: true })
        .filter((e) => e.isDirectory() && ['docs.json', 'mint.json'].some((f) => fs.existsSync(path.join(root, e.name, f))))
        .map((e) => e.name)
        .sort();
      for (const name of corpora) {
        const dir = path.join(root, name);
        const times: Awaited<ReturnType<typeof timeExport>>[] = [];
        try {
          for (let r = 0; r < runs; r++) times.push(await timeExport(pool, dir, path.join(work, `${name}.zip`)));
          const mid = times.slice().sort((a, b) => a.ms - b.ms)[Math.floor(times.length / 2)] as (typeof times)[number];
          const warnings = [...mid.warnings.entries()].map(([c, k]) => `${c} ${k}`).join(', ');
          const fl = [timeFloor(dir), timeFloor(dir), timeFloor(dir)];
          rows.push({ name, pages: mid.pages, exportMs: mid.ms, exportCpu: mid.cpu, ...floorFields(fl), peakRss: mid.peakRss, zipBytes: mid.zipBytes, timings: mid.timings, note: warnings ? `warnings: ${warnings}` : '' });
        } catch (err) {
          const failures = err instanceof ExportError ? err.failures.length : 0;
          rows.push({ name, pages: 0, exportMs: NaN, exportCpu: NaN, peakRss: process.memoryUsage().rss, zipBytes: 0, timings: {}, note: `FAILED (${failures} failures): ${(err as Error).message.split('\n').slice(0, 4).join(' | ')}` });
        }
      }
    }
  } finally {
    await pool.close();
    if (!values.keep) fs.rmSync(work, { recursive: true, force: true });
  }
  console.log('');
  printTable(rows, threads);
  printApiRatio(rows);
  if (searchRows.length > 0) printSearch(searchRows);
  console.log(`\nprocess peak RSS (getrusage maxRSS, main thread + workers): ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
  console.log('floor = read every page + marked.parse, one thread; "vs floor" = floor time / export time (1.0× = as fast as the floor).');
  console.log(`stage floor = floor + the bare library calls every export also needs (highlight.js on fences, deflate level 1, sha256 + CRC-32, search tokens), one thread, no MDX/layout/zip; "best vs floor" = floor / (stage floor / ${threads} threads): the ratio no renderer using these libraries can beat here; "best, stored zip": the same without deflate, for a zip storing its pages uncompressed.`);
  console.log(`vs stage floor ÷ ${threads} = (stage floor / ${threads} threads) / export time: the ratio if the cores scaled perfectly; vs stage floor, all cores = the stage floor run in ${threads} processes at once, each with an equal share of the pages (wall time of the slowest) / export time: issue 18's ratio, measured.`);
  console.log('cpu s = CPU seconds of the process, all threads (unaffected by other load on the machine); stages: wall ms, worker.*: worker ms summed over workers.');
  console.log(`load average at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} (figures above are only comparable on an otherwise idle machine)`);
}

await main();
