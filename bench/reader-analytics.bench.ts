/**
 * Reader analytics at scale (issue 20). `node --import tsx bench/reader-analytics.bench.ts
 * [--views N] [--paths N] [--days N] [--feedback N] [--requests N] [--ingest-seconds S]`, or
 * `BENCH_ONLY=reader-analytics npm run bench`.
 *
 * 1. Fills a temp database with N page views (default 10,000,000 over 100,000 paths and 30
 *    days, 20 % AI) and their rollups, generated in memory and bulk-inserted in one transaction
 *    (`reader-analytics-fill.ts`; setup, not a measurement of the ingest path, and checked first
 *    on a small set to leave exactly what the real write path leaves), plus feedback rows.
 * 2. Report latency, wall-clock p50/p99 over HTTP on loopback, for views, visitors, feedback and
 *    feedback by page: all time, a week of whole days and a week with partial edges; steady and
 *    after a restart (caches dropped).
 * 3. A plain GROUP BY over the raw rows answering the same questions, in the same run, and the
 *    ratio to the report.
 * 4. Ingest throughput of POST /_/events page views from autocannon (a child process).
 * 5. Each figure against issue 20's targets (report p99 < 50 ms, ingest ≥ 10,000 events/s).
 */
import { execFile } from 'node:child_process';
import { parseArgs, promisify } from 'node:util';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseConfig } from '../config/load.js';
import { buildAdminApp } from '../app/admin-app.js';
import { buildSiteApp } from '../app/site-app.js';
import { createAppContext } from '../app/create-context.js';
import { createFeatures } from '../app/features.js';
import { createLogger } from '../app/logger.js';
import type { ReaderAnalyticsFeature } from '../app/reader-analytics/feature.js';
import { checkFillAgainstIngest, fillViews, pathName, type FillShape } from './reader-analytics-fill.js';
import { rng } from '../test/analytics/reference.js';

const { values: args } = parseArgs({
  options: {
    views: { type: 'string', default: '10000000' },
    paths: { type: 'string', default: '100000' },
    days: { type: 'string', default: '30' },
    feedback: { type: 'string', default: '200000' },
    requests: { type: 'string', default: '200' },
    'ingest-seconds': { type: 'string', default: '10' },
    /** Keep the filled database here and reuse it when it is already filled (report-only reruns). */
    state: { type: 'string' },
    /** Which measurements to run (with --state: e.g. only ingest again). */
    parts: { type: 'string', default: 'reports,naive,ingest' },
  },
  strict: false,
});
const N = Number(args.views);
const PATHS = Number(args.paths);
const DAYS = Number(args.days);
const FEEDBACK = Number(args.feedback);
const REQUESTS = Number(args.requests);
const INGEST_S = Number(args['ingest-seconds']);
const PROJECT = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const DAY = 86_400_000;
const NOW = Date.now();
const END_DAY = Math.floor(NOW / DAY);
const FIRST_DAY = END_DAY - DAYS;
const VISITORS_PER_DAY = 60_000;

const stateDir = args.state ? path.resolve(String(args.state)) : fs.mkdtempSync(path.join(os.tmpdir(), 'reader-bench-'));
fs.mkdirSync(stateDir, { recursive: true });
const reuse = fs.existsSync(path.join(stateDir, 'filled'));
const parts = new Set(String(args.parts).split(','));
const log = (s: string) => console.log(s);
const ms = (x: number) => `${x.toFixed(1)} ms`;
const load = () => `load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`;
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

log(`reader analytics bench: ${N.toLocaleString()} views, ${PATHS.toLocaleString()} paths, ${DAYS} days, ${FEEDBACK.toLocaleString()} feedback, state ${stateDir}`);
log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}, ${load()}`);
const config = parseConfig(
  {
    stateDir,
    log: { level: 'warn' },
    organizations: [{ id: 'org_bench', name: 'Bench', plan: 'enterprise' }],
    projects: [{ id: PROJECT, orgId: 'org_bench', name: 'Bench', domain: 'docs.bench.internal', sourceDir: stateDir }],
    analytics: { rateLimitPerHour: 1_000_000_000, ingest: { perClientPerMinute: 1_000_000_000, maxBatch: 100 } },
  },
  { source: 'bench' },
);
const ctx = createAppContext({ config, log: createLogger('warn') });
const adminKey = ctx.stores.adminKeys.create({ orgId: 'org_bench', scopes: ['read', 'write'], expiresAt: null }).key;

// ---- 1. fill: generated in memory, bulk-inserted in one transaction ---------------------------
const shape: FillShape = { views: N, paths: PATHS, days: DAYS, firstDay: FIRST_DAY, visitorsPerDay: VISITORS_PER_DAY, aiShare: 0.2, seed: 20 };
{
  // The fill is a shortcut past the ingest path: first prove it leaves what ingest would.
  const c0 = performance.now();
  const c = checkFillAgainstIngest({ views: 40_000, paths: 500, days: 3, firstDay: FIRST_DAY, visitorsPerDay: 3_000, aiShare: 0.2, seed: 21 });
  log(`fill check: ${c.views.toLocaleString()} views filled and ingested through the real write path leave equal raw rows, counted bits and ${c.rollupRows.toLocaleString()} rollup rows (${ms(performance.now() - c0)})`);
}
if (reuse) log(`reusing the filled database in ${stateDir}`);
else {
  const g0 = performance.now();
  const db = ctx.db;
  db.pragma('cache_size = -262144');
  const r = rng(20);
  db.prepare('INSERT INTO search_projects (project_id) VALUES (?) ON CONFLICT DO NOTHING').run(PROJECT);
  const pk = (db.prepare('SELECT pk FROM search_projects WHERE project_id = ?').get(PROJECT) as { pk: number }).pk;
  const insFeedback = db.prepare(
    `INSERT INTO page_feedback (project_pk, public_id, created_ms, path, source, helpful, reason, comment, code, filename, lang, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  let rollups = 0;
  db.transaction(() => {
    rollups = fillViews(db, pk, shape);
    const sources = ['contextual', 'thumbs_only', 'code_snippet', 'contextual'] as const;
    const statuses = ['pending', 'pending', 'in_progress', 'resolved', 'dismissed'] as const;
    for (let i = 0; i < FEEDBACK; i++) {
      const source = sources[i % 4]!;
      const at = FIRST_DAY * DAY + Math.floor((DAYS * DAY * i) / FEEDBACK);
      insFeedback.run(pk, `fb${i}`, at, pathName(1 + Math.floor(PATHS * r() * r())), source, source === 'code_snippet' ? null : r() < 0.6 ? 1 : 0, null,
        source === 'thumbs_only' ? null : `comment ${i}`, source === 'code_snippet' ? 'npm install docs' : null, null, source === 'code_snippet' ? 'bash' : null, statuses[i % 5]!);
    }
  }).immediate();
  const filledS = (performance.now() - g0) / 1000;
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec('ANALYZE');
  db.pragma('cache_size = -16000');
  fs.writeFileSync(path.join(stateDir, 'filled'), '');
  log(`fill (setup, one transaction): ${filledS.toFixed(1)} s (${Math.round(N / filledS).toLocaleString()} views/s), then checkpoint and ANALYZE ${((performance.now() - g0) / 1000 - filledS).toFixed(1)} s; ${rollups.toLocaleString()} rollup rows; database ${(fs.statSync(path.join(stateDir, 'docs-appliance.db')).size / 1e9).toFixed(2)} GB (${load()})`);
}

// ---- 2. report latency ------------------------------------------------------------------------
const features = createFeatures(ctx);
const readers = features.find((f) => f.name === 'reader-analytics') as ReaderAnalyticsFeature;
const admin = http.createServer(buildAdminApp(ctx, features));
await new Promise<void>((resolve) => admin.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(admin.address() as AddressInfo).port}/v1/analytics/${PROJECT}`;

async function timeRequests(url: string, n: number, before?: () => void) {
  const times: number[] = [];
  const cpu: number[] = [];
  let body = '';
  for (let i = 0; i < n; i++) {
    before?.();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    body = await new Promise<string>((resolve, reject) => {
      http.get(url, { headers: { authorization: `Bearer ${adminKey}` } }, (res) => {
        let b = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (b += c));
        res.on('end', () => (res.statusCode === 200 ? resolve(b) : reject(new Error(`${res.statusCode} ${b}`))));
      }).on('error', reject);
    });
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), cpuP50: percentile(cpu, 50), cpuP99: percentile(cpu, 99), body: JSON.parse(body) as Record<string, unknown> };
}

const weekFrom = new Date((END_DAY - 8) * DAY).toISOString().slice(0, 10);
const weekTo = new Date((END_DAY - 1) * DAY).toISOString().slice(0, 10);
const edgeFrom = encodeURIComponent(new Date((END_DAY - 8) * DAY + 9.5 * 3600_000).toISOString());
const edgeTo = encodeURIComponent(new Date((END_DAY - 1) * DAY + 14.25 * 3600_000).toISOString());
const ranges: [string, string][] = [
  ['all time', ''],
  ['week (whole days)', `dateFrom=${weekFrom}&dateTo=${weekTo}`],
  ['week (partial edges)', `dateFrom=${edgeFrom}&dateTo=${edgeTo}`],
];
type Figure = { op: string; range: string; p50: number; p99: number; naive?: number };
const figures: Figure[] = [];
const OPS = ['views', 'visitors', 'feedback', 'feedback/by-page'] as const;
if (parts.has('reports')) {
log(`\nreport latency over HTTP, ${REQUESTS} requests each (restart = caches dropped before each of 3 requests; steady = day vectors in memory; wall-clock, and CPU = this process's CPU time per request, server and client alike) (${load()}):`);
for (const op of OPS) {
  for (const [name, q] of ranges) {
    const url = `${base}/${op}?${q}`;
    const traffic = op === 'views' || op === 'visitors';
    const restart = traffic ? await timeRequests(url, 3, () => readers.clearReportCache()) : undefined;
    // One request first, as the warm-up after a start would have loaded the caches.
    await timeRequests(url, 1);
    const steady = await timeRequests(url, REQUESTS);
    figures.push({ op, range: name, p50: steady.p50, p99: steady.p99 });
    const b = steady.body as { totals?: { total: number }; feedback?: unknown[] };
    log(
      `  ${op.padEnd(16)} ${name.padEnd(22)} wall p50 ${ms(steady.p50)} p99 ${ms(steady.p99)} (CPU p50 ${ms(steady.cpuP50)} p99 ${ms(steady.cpuP99)})${restart ? ` | restart p50 ${ms(restart.p50)} p99 ${ms(restart.p99)}` : ''}` +
        (b.totals ? ` | total ${b.totals.total.toLocaleString()}` : ` | rows ${(b.feedback ?? []).length}`),
    );
  }
}
{
  const deep = await timeRequests(`${base}/views?limit=250&offset=50000`, Math.floor(REQUESTS / 4));
  log(`  views            all time, offset 50,000 wall p50 ${ms(deep.p50)} p99 ${ms(deep.p99)} (CPU p50 ${ms(deep.cpuP50)} p99 ${ms(deep.cpuP99)})`);
}
}

// ---- 3. plain GROUP BY over the raw rows, the same questions --------------------------------------
const edgeFromMs = (END_DAY - 8) * DAY + 9.5 * 3600_000;
const edgeToMs = (END_DAY - 1) * DAY + 14.25 * 3600_000;
const msRanges: Record<string, [number, number]> = { 'all time': [0, 8.64e15], 'week (whole days)': [(END_DAY - 8) * DAY, (END_DAY - 1) * DAY], 'week (partial edges)': [edgeFromMs, edgeToMs] };
const naive: Record<(typeof OPS)[number], { sql: string; runs: number }> = {
  views: { sql: `SELECT path_id, sum(ai = 0) AS h, sum(ai = 1) AS a, count(*) AS t FROM page_views WHERE project_pk = 1 AND at_ms >= ? AND at_ms < ? GROUP BY path_id ORDER BY t DESC LIMIT 50`, runs: 2 },
  visitors: {
    sql: `SELECT path_id, count(DISTINCT CASE WHEN ai = 0 THEN visitor END) AS h, count(DISTINCT CASE WHEN ai = 1 THEN visitor END) AS a, count(DISTINCT visitor) AS t FROM page_views WHERE project_pk = 1 AND at_ms >= ? AND at_ms < ? GROUP BY path_id ORDER BY t DESC LIMIT 50`,
    runs: 2,
  },
  feedback: { sql: `SELECT * FROM page_feedback WHERE project_pk = 1 AND created_ms >= ? AND created_ms < ? ORDER BY created_ms DESC, id DESC LIMIT 50`, runs: 5 },
  'feedback/by-page': {
    sql: `SELECT path, sum(helpful = 1 AND source <> 'code_snippet') AS up, sum(helpful = 0 AND source <> 'code_snippet') AS down, sum(source = 'code_snippet') AS code, count(*) AS t FROM page_feedback WHERE project_pk = 1 AND created_ms >= ? AND created_ms < ? GROUP BY path ORDER BY t DESC LIMIT 10`,
    runs: 5,
  },
};
if (parts.has('naive')) {
  log(`\nplain GROUP BY over the raw rows (page_views, page_feedback), the best of 2 runs (5 for feedback) (${load()}):`);
  for (const op of OPS) {
    const st = ctx.db.prepare(naive[op].sql);
    for (const [name, [from, to]] of Object.entries(msRanges)) {
      const times: number[] = [];
      for (let i = 0; i < naive[op].runs; i++) {
        const t0 = performance.now();
        st.all(from, to);
        times.push(performance.now() - t0);
      }
      const best = Math.min(...times);
      const f = figures.find((x) => x.op === op && x.range === name);
      if (f) f.naive = best;
      log(`  ${op.padEnd(16)} ${name.padEnd(22)} best ${ms(best)}, worst ${ms(Math.max(...times))}${f ? ` | report wall p50 ${ms(f.p50)}; plain ÷ report ${(best / f.p50).toPrecision(2)}` : ''}`);
    }
  }
}

// ---- 4. ingest throughput -------------------------------------------------------------------------
const site = http.createServer(buildSiteApp(ctx, features));
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const sitePort = (site.address() as AddressInfo).port;
// The listener counts beacons only for the project of the site it serves.
{
  const dir = path.join(stateDir, 'site');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), '<p>bench</p>');
  const siteFeature = features.find((f) => f.name === 'site') as import('../app/site/feature.js').SiteFeature;
  siteFeature.loader.activateLoaded({ version: 'bench', dir, projectId: PROJECT, mounted: true, source: dir, fromCache: false, pageCount: 1 }, 3);
}
const bin = path.join(import.meta.dirname, '..', 'node_modules', '.bin', 'autocannon');
let ingest100: number | undefined;
const maxId = () => (ctx.db.prepare('SELECT max(id) AS m FROM page_views').get() as { m: number }).m;
log(`\ningest: autocannon (child process) → POST /_/events page views on loopback, ${INGEST_S} s each (${load()}):`);
for (const perRequest of parts.has('ingest') ? [100, 20, 1] : []) {
  const events = Array.from({ length: perRequest }, (_, i) => ({ type: 'pageview', path: `/docs/section-${i % 97}/page-${i}`, viewId: `v[<id>]-${i}` }));
  const body = JSON.stringify(perRequest === 1 ? events[0] : events);
  readers.flush();
  const before = maxId();
  const c0 = process.cpuUsage();
  let stdout: string;
  try {
    ({ stdout } = await promisify(execFile)(
      bin,
      ['-j', '-I', '-c', '32', '-d', String(INGEST_S), '-m', 'POST', '-H', 'content-type=application/json', '-H', 'host=docs.bench.internal', '-H', 'user-agent=Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', '-b', body, `http://127.0.0.1:${sitePort}/_/events`],
      { encoding: 'utf8', maxBuffer: 64 << 20 },
    ));
  } catch (err) {
    log(`  autocannon failed: ${(err as Error).message}`);
    continue;
  }
  readers.flush();
  const c = process.cpuUsage(c0);
  const r = JSON.parse(stdout) as { latency: { p50: number; p99: number }; '2xx': number; non2xx: number; duration: number };
  if (perRequest === 100) ingest100 = (r['2xx'] * perRequest) / r.duration;
  log(`  ${String(perRequest).padStart(3)} view(s)/request: ${Math.round(r['2xx'] / r.duration).toLocaleString()} req/s, ${Math.round((r['2xx'] * perRequest) / r.duration).toLocaleString()} events/s accepted, latency p50 ${r.latency.p50} ms p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}; ${(maxId() - before).toLocaleString()} rows written; server CPU ${(((c.user + c.system) / (r['2xx'] * perRequest))).toFixed(1)} µs per view (${Math.round(1e6 / ((c.user + c.system) / (r['2xx'] * perRequest))).toLocaleString()} views per CPU-second)`);
}

// ---- 5. against the targets of issue 20 ----------------------------------------------------------
log(`\nagainst the targets (${N.toLocaleString()} views, ${PATHS.toLocaleString()} paths; ${load()}):`);
for (const f of figures) {
  log(`  ${f.op.padEnd(16)} ${f.range.padEnd(22)} wall p50 ${ms(f.p50).padStart(9)} p99 ${ms(f.p99).padStart(9)} ${f.p99 < 50 ? 'met   ' : 'MISSED'} (p99 < 50 ms)${f.naive !== undefined ? ` | plain GROUP BY ${ms(f.naive)} = ${(f.naive / f.p99).toPrecision(2)} × the report's p99` : ''}`);
}
if (ingest100 !== undefined) log(`  ingest (100 views/request)              ${Math.round(ingest100).toLocaleString()} events/s ${ingest100 >= 10_000 ? 'met' : 'MISSED'} (≥ 10,000 events/s)`);

admin.close();
site.close();
for (const f of [...features].reverse()) await f.stop?.();
ctx.db.close();
if (!process.env.KEEP_BENCH_STATE && !args.state) fs.rmSync(stateDir, { recursive: true, force: true });
